/**
 * Create an inquiry with an attachment: ask for a pre-signed upload URL, PUT the bytes, name the file in the
 * inquiry's `fileSet`, then download it back through the inquiry's expiring link.
 *   npx tsx examples/create-inquiry-with-attachment.ts
 */
import { clientFromEnv, type Env, runIfMain } from './env.ts';

export async function main(env: Env): Promise<{ inquiryId: number; file: string; sameBytes: boolean }> {
  const bizapi = clientFromEnv(env);
  const bytes = new TextEncoder().encode('%PDF-1.4\n% a tiny demo file\n');
  // 1. An upload URL (valid 60 s); the URL itself is the credential for the PUT.
  const presigned = await bizapi.call('presigned_create', { body: { name: 'proposal.pdf' } });
  const put = await fetch(presigned.url, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/pdf' },
    body: bytes,
  });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  // 2. The inquiry, with the file (POST retries safely: the SDK sends one Idempotency-Key per call).
  const inquiry = await bizapi.call('inquiry_create', {
    body: { name: 'Website renewal', fileSet: [{ name: 'Proposal v1.pdf', file: presigned.path }] } as never,
  });
  // 3. Its detail lists the file with a download URL.
  const detail = await bizapi.call('inquiry_retrieve', { params: { path: { inquiry_id: inquiry.id } } });
  const file = detail.fileSet[0]!;
  const downloaded = new Uint8Array(await (await fetch(file.file)).arrayBuffer());
  return { inquiryId: inquiry.id, file: file.name, sameBytes: Buffer.from(downloaded).equals(Buffer.from(bytes)) };
}

runIfMain(import.meta.url, main);
