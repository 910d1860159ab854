import type { EncryptedSecret } from '@h/db';
import type { SecretBoxService } from '@h/providers';

/** Binds a server's sealed headers to its workspace and id: a row copied elsewhere does not open. */
const aad = (workspaceId: string, serverId: string) => `mcp-server:${workspaceId}:${serverId}`;

/** The headers of an http MCP server, sealed as one JSON object (AES-256-GCM, the instance master key). */
export function sealMcpHeaders(box: SecretBoxService, workspaceId: string, serverId: string, headers: Record<string, string>): EncryptedSecret {
  return box.seal(JSON.stringify(headers), aad(workspaceId, serverId));
}

export function openMcpHeaders(box: SecretBoxService, workspaceId: string, serverId: string, secret: EncryptedSecret): Record<string, string> {
  return JSON.parse(box.open(secret, aad(workspaceId, serverId))) as Record<string, string>;
}
