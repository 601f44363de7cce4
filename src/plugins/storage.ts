/**
 * Attachment storage for the modules (docs/api.md#attachments): decorates the application with `storage`
 * (where attachment bytes live) and `fileLimits` (URL lifetimes, upload size limit), and every request with
 * `fileContext`, the {@link FileContext} the file and inquiry services take. Route files read it from the
 * request instead of building it themselves, so no route file imports another.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FilesConfig } from '../config.ts';
import type { FileContext } from '../modules/file/file.service.ts';
import type { Storage } from '../modules/file/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where attachment bytes live (docs/api.md#attachments). */
    storage: Storage;
    /** Attachment lifetimes and size limit (`BIZAPI_UPLOAD_URL_TTL`, `BIZAPI_DOWNLOAD_URL_TTL`, `BIZAPI_UPLOAD_MAX_BYTES`). */
    fileLimits: FilesConfig;
  }
  interface FastifyRequest {
    /**
     * The request's {@link FileContext}: the app's storage and limits, the origin the client reached the API
     * at (so local storage URLs point back to this server), and the request's logger. Built when read.
     */
    readonly fileContext: FileContext;
  }
}

/** Options of the plugin. */
export interface StoragePluginOptions {
  /** The storage backend (`createStorage(config, masterKey)`, or a test's own). */
  storage: Storage;
  /** The configured attachment limits. */
  files: FilesConfig;
}

async function storagePlugin(app: FastifyInstance, opts: StoragePluginOptions): Promise<void> {
  app.decorate('storage', opts.storage);
  app.decorate('fileLimits', opts.files);
  app.decorateRequest('fileContext', {
    getter(this: FastifyRequest): FileContext {
      return { storage: this.server.storage, files: this.server.fileLimits, origin: this.publicOrigin, log: this.log };
    },
  });
}

export default fp(storagePlugin, { name: 'storage' });
