/*
 * bizapi docs page (/docs): signs every "Try it out" request in the browser (docs/authentication.md#docs-page).
 *
 * Loaded as a local script by Swagger UI (no inline script or style, so the page's CSP holds). Swagger UI's
 * `requestInterceptor` calls `window.bizapiSignRequest(request)` before each request:
 *   - "Authorize" → `apiKey` (X-API-Key) takes the API key, `signature` (X-Signature) takes the key's SECRET;
 *     Swagger UI keeps both in memory only (persistAuthorization is off: nothing in localStorage);
 *   - the secret never leaves the page: the interceptor removes it from the headers and sends instead a
 *     version-2 signature (docs/authentication.md#signature-version-2): X-Signature-Timestamp = Unix seconds,
 *     X-Signature = "v2=" + lowercase hex HMAC-SHA256 of "{timestamp}.{METHOD}.{path and query}.{body bytes}",
 *     computed with Web Crypto (crypto.subtle). Version 2 passes every
 *     BIZAPI_SIGNATURE_MODE (optional, required, v2); a request repeated within one second gets the next
 *     second's timestamp, so the server never sees the same signature twice (signature_replayed).
 * Requests to the OpenAPI document itself are left alone.
 *
 * Browsers offer Web Crypto only in a secure context: https://, or http:// on localhost / 127.0.0.1. Opened
 * over plain HTTP on any other address (a LAN, Docker or staging host) the page loads and works, but cannot
 * sign: it says so in a notice at the top, and sends Try-it-out requests unsigned (the secret is still never
 * sent), which a server in the default `optional` signature mode accepts. Where it signs, `body` gets the
 * class `bizapi-signs` (the note under each curl command: its signature was used already).
 */
/* global window, document, crypto, TextEncoder, URL, URLSearchParams */
(function () {
  'use strict';

  var encoder = new TextEncoder();

  /** Whether the browser offers Web Crypto here (only in a secure context). */
  var canSign = Boolean(window.isSecureContext && window.crypto && window.crypto.subtle);

  /** The notice at the top of the page where it cannot sign (docs/authentication.md#docs-page). */
  function showNotice() {
    var notice = document.createElement('div');
    notice.id = 'bizapi-signing-notice';
    notice.className = 'bizapi-notice';
    notice.setAttribute('role', 'status');
    notice.textContent =
      'This page cannot sign requests at ' +
      window.location.origin +
      ': browsers offer Web Crypto only on https:// ' +
      'and on http://localhost pages. "Try it out" works, but sends requests without a signature (never the secret), ' +
      'which the server accepts only while BIZAPI_SIGNATURE_MODE is optional (its default). To sign here, open the page ' +
      'over https (e.g. behind your proxy), or on http://localhost through an SSH tunnel (ssh -L 8000:127.0.0.1:8000 host), ' +
      'or use bin/bizapi request.';
    document.body.insertBefore(notice, document.body.firstChild);
  }

  if (canSign) document.body.classList.add('bizapi-signs');
  else showNotice();

  function hex(buffer) {
    var bytes = new Uint8Array(buffer);
    var out = '';
    for (var i = 0; i < bytes.length; i++) out += bytes[i].toString(16).padStart(2, '0');
    return out;
  }

  /** The exact bytes the browser will send for `body`, or null when they cannot be known in advance. */
  function bodyBytes(body) {
    if (body === undefined || body === null || body === '') return new Uint8Array(0);
    if (typeof body === 'string') return encoder.encode(body);
    if (body instanceof ArrayBuffer) return new Uint8Array(body);
    if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    if (body instanceof URLSearchParams) return encoder.encode(body.toString());
    return null; // FormData, Blob, plain objects: the browser chooses the bytes (multipart boundary)
  }

  /** HMAC-SHA256 of `bytes` keyed with `secret`, lowercase hex (docs/authentication.md). */
  async function hmacHex(secret, bytes) {
    if (!window.crypto || !window.crypto.subtle) {
      throw new Error('Signing needs Web Crypto, which browsers offer only on https:// or http://localhost pages.');
    }
    var key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    return hex(await crypto.subtle.sign('HMAC', key, bytes));
  }

  function headerName(headers, wanted) {
    var names = Object.keys(headers || {});
    for (var i = 0; i < names.length; i++) if (names[i].toLowerCase() === wanted) return names[i];
    return undefined;
  }

  /** Swagger UI's requestInterceptor: replaces the secret in X-Signature by the body's signature. */
  window.bizapiSignRequest = async function (request) {
    var name = headerName(request.headers, 'x-signature');
    if (name === undefined) return request; // not authorized, or no signature needed (the document, /healthz)
    var secret = request.headers[name];
    delete request.headers[name];
    if (!secret) return request;
    if (!canSign) return request; // the notice at the top says why: sent unsigned, without the secret
    var bytes = bodyBytes(request.body);
    if (bytes === null) {
      // A multipart body's bytes are chosen by the browser: send it unsigned (accepted unless signatures are required).
      console.warn('bizapi: this body cannot be signed in the page; choose application/json as the request body type.');
      return request;
    }
    var target = new URL(request.url, window.location.href);
    var method = String(request.method || 'GET').toUpperCase();
    var now = Math.floor(Date.now() / 1000);
    Object.keys(sent).forEach(function (sig) {
      if (sent[sig] < now - 300) delete sent[sig];
    });
    for (var ts = now; ; ts++) {
      var prefix = encoder.encode(ts + '.' + method + '.' + target.pathname + target.search + '.');
      var message = new Uint8Array(prefix.length + bytes.length);
      message.set(prefix, 0);
      message.set(bytes, prefix.length);
      var signature = 'v2=' + (await hmacHex(secret, message));
      if (sent[signature] !== undefined) continue;
      sent[signature] = ts;
      request.headers['X-Signature-Timestamp'] = String(ts);
      request.headers['X-Signature'] = signature;
      return request;
    }
  };

  /** Version-2 signatures this page sent, with their timestamps (the server accepts each one once). */
  var sent = {};
})();
