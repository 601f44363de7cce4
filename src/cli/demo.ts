/** `bizapi demo` (README.md#quick-start): creates a demo business with demo data. */
import { createDemo } from '../demo/demo.ts';
import { createStorage } from '../modules/file/create-storage.ts';
import { type CliContext, cliMasterKey, printJson, withDb } from './context.ts';

/**
 * `demo`: creates a new demo business — with its attachments in the configured storage and its notifications
 * delivered (in-app, `.eml` files) — and prints `{"business", "apiKey", "secretKey", "catalog"}`.
 */
export async function demo(ctx: CliContext): Promise<void> {
  const config = ctx.config();
  printJson(
    await withDb(config, async (db) => {
      const masterKey = await cliMasterKey(db, config);
      return createDemo(db, masterKey, {
        storage: await createStorage(config, masterKey),
        deliver: config,
        warn: (m) => process.stderr.write(`${m}\n`),
      });
    }),
  );
}
