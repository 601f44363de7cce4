/**
 * The docs page as a new user meets it (issue 26), in Debian's Chromium driven by playwright-core:
 * - the "Authorize" dialog names its boxes as docs/authentication.md#docs-page does (`X-API-Key`,
 *   `X-Signature` for the secret key, `Metrics-Token` for operators), each with its explanation;
 * - Try-it-out of `GET /v1/client` on a business whose clients were all last changed on a day that is not
 *   the OpenAPI document's example date (2026-11-26) answers those clients: no example value (an
 *   `updated_start` / `updated_end` of that date) is pre-filled and sent as a filter.
 * - the API key typed into the `X-Signature` box (instead of the secret key) gets a 403 that names that box.
 * Needs `/usr/bin/chromium` (Debian package `chromium`; `.ci/run` installs it).
 */
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../setup/api-client.ts';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import { newBusiness } from '../../setup/factories.ts';

const CHROMIUM = '/usr/bin/chromium';
/** A day that is not the document's example date: the clients below were last changed then. */
const ANOTHER_DAY = '2025-06-03T10:00:00.000Z';

describe.skipIf(!fs.existsSync(CHROMIUM))('the docs page in a first hour (Chromium)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const api = apiClient(() => t.app);
  beforeAll(async () => {
    t = await buildTestApp({ BIZAPI_SIGNATURE_MODE: 'required' });
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
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('boxes named as the docs name them; Try-it-out of GET /v1/client lists clients of another day (no example pre-filled)', async () => {
    const b = await newBusiness(t);
    const names = ['First hour A', 'First hour B'];
    const ids: number[] = [];
    for (const companyName of names) {
      const res = await api.post(b, '/v1/client', { companyName });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.id as number);
    }
    // Those clients were last changed on another day than the example date.
    await t.testDb.db
      .updateTable('client')
      .set({ created: ANOTHER_DAY, updated: ANOTHER_DAY })
      .where('id', 'in', ids)
      .execute();

    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const sent: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/v1/')) sent.push(req.url());
    });
    expect((await page.goto(`${base}/docs`, { waitUntil: 'load' }))?.status()).toBe(200);
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 0, undefined, { timeout: 45_000 });

    await page.click('button.authorize');
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.waitFor();
    const titles = (await dialog.locator('.auth-container h4').allTextContents()).map((s) =>
      s.replace(/\s+/g, ' ').trim(),
    );
    expect(titles).toEqual([
      expect.stringMatching(/^X-API-Key \(/),
      expect.stringMatching(/^X-Signature \(/),
      expect.stringMatching(/^Metrics-Token \(/),
    ]);
    const forms = dialog.locator('.auth-container');
    expect(await forms.nth(0).textContent()).toContain('API key');
    expect(await forms.nth(1).textContent()).toContain('secret key');
    expect(await forms.nth(2).textContent()).toContain('BIZAPI_METRICS_TOKEN');
    await forms.nth(0).locator('input').fill(b.apiKey);
    await forms.nth(0).locator('button.authorize').click();
    await forms.nth(1).locator('input').fill(b.secretKey);
    await forms.nth(1).locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();

    const op = page
      .locator('.opblock-get')
      .filter({ has: page.locator('[data-path="/v1/client"]') })
      .first();
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    // No parameter input carries a value the user did not type.
    const filled = await op
      .locator('.parameters input[type=text], .parameters select')
      .evaluateAll((els) =>
        els
          .map((e) => [e.closest('tr')?.getAttribute('data-param-name') ?? '', (e as HTMLInputElement).value])
          .filter(([, v]) => v !== ''),
      );
    expect(filled).toEqual([]);
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status');
    await status.first().waitFor({ timeout: 20_000 });
    expect((await status.first().textContent())?.trim()).toBe('200');
    const body = JSON.parse(
      (await op.locator('.live-responses-table .response .microlight').first().textContent()) ?? '{}',
    ) as { results: { id: number }[] };
    expect(body.results.map((c) => c.id).sort()).toEqual([...ids].sort());
    const sentList = sent.find((u) => new URL(u).pathname === '/v1/client');
    expect(sentList).toBeDefined();
    expect(new URL(sentList!).search).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('a wrong secret key in the X-Signature box: 403 signature_invalid, whose detail names the X-Signature box', async () => {
    const b = await newBusiness(t);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    expect((await page.goto(`${base}/docs`, { waitUntil: 'load' }))?.status()).toBe(200);
    await page.waitForFunction(() => document.querySelectorAll('.opblock').length > 0, undefined, { timeout: 45_000 });
    await page.click('button.authorize');
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.waitFor();
    const forms = dialog.locator('.auth-container');
    await forms.nth(0).locator('input').fill(b.apiKey);
    await forms.nth(0).locator('button.authorize').click();
    await forms.nth(1).locator('input').fill(b.apiKey); // the wrong box's value: the API key, not the secret key
    await forms.nth(1).locator('button.authorize').click();
    await dialog.locator('button.btn-done').first().click();
    const op = page
      .locator('.opblock-get')
      .filter({ has: page.locator('[data-path="/v1/client"]') })
      .first();
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    await op.locator('button.execute').click();
    const status = op.locator('.live-responses-table .response .response-col_status');
    await status.first().waitFor({ timeout: 20_000 });
    expect((await status.first().textContent())?.trim()).toBe('403');
    const body = JSON.parse(
      (await op.locator('.live-responses-table .response .microlight').first().textContent()) ?? '{}',
    ) as { detail: string; code: string };
    expect(body.code).toBe('signature_invalid');
    expect(body.detail).toContain('X-Signature box');
    await page.close();
  }, 90_000);
});
