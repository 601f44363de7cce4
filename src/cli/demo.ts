/** `bizapi demo` (decisions §6): creates a demo business with demo data. */
import { resolveMasterKey } from '../modules/auth/secret-box.ts';
import { createDemo } from '../modules/catalog/demo.ts';
import { type CliContext, printJson, withDb } from './context.ts';

/** `demo`: creates a new demo business and prints `{"business", "apiKey", "secretKey", "catalog"}`. */
export async function demo(ctx: CliContext): Promise<void> {
  const config = ctx.config();
  const masterKey = resolveMasterKey(config);
  printJson(await withDb(config, (db) => createDemo(db, masterKey)));
}
