/**
 * The docs page's own assets (docs/authentication.md#docs-page), as strings so that the compiled build
 * (`npm run build`, which copies only JavaScript) carries them: the top bar's logo and the tab's icon (instead
 * of Swagger UI's and Fastify's), and the style sheet of the notices `sign-requests.js` shows.
 */

/** The top bar's logo (SVG, white text on Swagger UI's dark top bar). */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="132" height="40" viewBox="0 0 132 40">' +
  '<rect x="2" y="4" width="32" height="32" rx="7" fill="#2f80ed"/>' +
  '<path d="M12 11h8.5a5 5 0 0 1 1.9 9.6A5.3 5.3 0 0 1 20.8 31H12z" fill="#fff"/>' +
  '<text x="42" y="28" font-family="Helvetica, Arial, sans-serif" font-size="21" font-weight="700" fill="#fff">bizapi</text></svg>';

/** The tab's icon (SVG). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#2f80ed"/>' +
  '<path d="M10 7h8.5a5 5 0 0 1 1.9 9.6A5.3 5.3 0 0 1 18.8 27H10z" fill="#fff"/></svg>';

/**
 * The page's style sheet (a file, not inline: the CSP allows no inline style): the notice shown where the
 * browser offers no Web Crypto, and, where the page signs (`body.bizapi-signs`), a note under each curl command
 * Swagger UI shows — its version-2 signature was the page's own, which the server accepts once (docs/authentication.md#docs-page).
 */
export const DOCS_CSS = `
.bizapi-notice {
  margin: 0;
  padding: 12px 20px;
  background: #fff4e5;
  border-bottom: 2px solid #f5a623;
  color: #3b2a00;
  font: 14px/1.5 sans-serif;
}
.bizapi-notice code { font-family: monospace; }
.bizapi-signs .swagger-ui .curl-command::after {
  content: "This command carries the page's version-2 signature, which the server accepts once and the page has used: run as it is, it gets 403 signature_replayed. bin/bizapi request METHOD PATH signs a fresh one each time.";
  display: block;
  margin-top: 6px;
  font: 12px/1.4 sans-serif;
  color: #555;
}
`;
