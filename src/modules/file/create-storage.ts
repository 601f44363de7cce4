/**
 * The storage factory: the backend the configuration names (the interface is `storage.ts`).
 */
import type { Config } from '../../config.ts';
import { LocalStorage } from './local-storage.ts';
import type { Storage } from './storage.ts';

/**
 * The storage the configuration names: an `S3Storage` when `BIZAPI_STORAGE=s3` (the AWS SDK is loaded only
 * then), else a {@link LocalStorage} rooted at `<BIZAPI_DATA_DIR>/files` whose URLs are signed with a key
 * derived from the master key (so every process sharing the master key and the directory accepts them).
 */
export async function createStorage(
  config: Pick<Config, 'storage' | 's3' | 'dataDir'>,
  masterKey: Buffer,
): Promise<Storage> {
  if (config.storage === 's3' && config.s3) {
    const { S3Storage } = await import('./s3-storage.ts');
    return new S3Storage(config.s3);
  }
  return new LocalStorage(`${config.dataDir}/files`, masterKey);
}
