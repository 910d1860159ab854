// Shared by the specs of this lib: an AuditService that keeps what it records, and a way to catch
// the AppException a call should refuse with.
import type { AuditEntryInput, AuditRepository } from '@h/db';
import { AppException } from '@h/http';
import { AuditService } from '../audit/audit.service';

export function recordingAudit(): { service: AuditService; entries: AuditEntryInput[] } {
  const entries: AuditEntryInput[] = [];
  const repo = { record: async (e: AuditEntryInput) => void entries.push(e) } as unknown as AuditRepository;
  return { service: new AuditService(repo), entries };
}

/** The AppException `call` rejects with; fails the test when it resolves or throws anything else. */
export async function refusal(call: Promise<unknown>): Promise<AppException> {
  const err = await call.then(
    () => new Error('expected a refusal, but the call succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof AppException)) throw err;
  return err;
}
