/**
 * The docs as a user sees them: Debian's Chromium, headless, driven by playwright-core, opens `/docs` on a
 * listening server and finds every operation of the OpenAPI document listed, with nothing loaded from
 * another host. Needs `/usr/bin/chromium` (Debian package `chromium`; `.ci/run` installs it).
 */
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { apiClient } from '../../setup/api-client.ts';

const CHROMIUM = '/usr/bin/chromium';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe.skipIf(!fs.existsSync(CHROMIUM))(
  'GET /docs in Chromium (needs /usr/bin/chromium, Debian package chromium)',
  () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    beforeAll(async () => {
      t = await buildTestApp();
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('lists every operation of the OpenAPI document, from local assets only', async () => {
      const doc = (await apiClient(t.app).raw(undefined, { method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const expected = Object.entries(doc.paths)
        .flatMap(([path, item]) =>
          Object.keys(item)
            .filter((k) => METHODS.includes(k))
            .map((m) => `${m.toUpperCase()} ${path}`),
        )
        .sort();

      const page = await browser.newPage();
      const foreign: string[] = [];
      const failed: string[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(base) && !req.url().startsWith('data:')) foreign.push(req.url());
      });
      page.on('requestfailed', (req) => failed.push(req.url()));
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));

      const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
      expect(res?.status()).toBe(200);
      await page.waitForFunction((n) => document.querySelectorAll('.opblock').length >= n, expected.length, {
        timeout: 20_000,
      });
      const listed = await page.$$eval('.opblock', (blocks) =>
        blocks.map((b) => {
          const method = b.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
          // Swagger UI strikes deprecated operations through, under another class.
          const path =
            b.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path') ??
            '';
          return `${method} ${path}`;
        }),
      );
      expect([...new Set(listed)].sort()).toEqual(expected);
      // The deprecated aliases (e.g. inquiry /history) are shown as deprecated, and only they.
      const shownDeprecated = await page.$$eval('.opblock.opblock-deprecated', (blocks) =>
        blocks.map(
          (b) =>
            `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ${b.querySelector('[data-path]')?.getAttribute('data-path')}`,
        ),
      );
      const documentedDeprecated = Object.entries(doc.paths)
        .flatMap(([path, item]) =>
          Object.entries(item)
            .filter(([k, op]) => METHODS.includes(k) && (op as { deprecated?: boolean }).deprecated === true)
            .map(([m]) => `${m.toUpperCase()} ${path}`),
        )
        .sort();
      expect(documentedDeprecated.length).toBeGreaterThan(0);
      expect([...new Set(shownDeprecated)].sort()).toEqual(documentedDeprecated);
      expect(await page.title()).toBe('bizapi — API docs'); // not "Swagger UI" (issue 36)
      expect(foreign).toEqual([]);
      expect(failed).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
