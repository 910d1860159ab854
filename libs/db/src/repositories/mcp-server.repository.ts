import { Injectable } from '@nestjs/common';
import type { McpApproval, McpServer, McpServerState, McpTransport } from '@h/contracts';
import { Prisma } from '../generated/client';
import { PrismaService } from '../prisma.service';
import { columns as sqlColumns, sql } from '../sql';
import type { EncryptedSecret } from './provider-credential.repository';

/** A workspace's MCP server without its sealed headers (only their names): the wire shape with Date objects. */
export type McpServerRecord = McpServer<Date>;

/** A second server of the same name in a workspace. */
export class McpServerNameTaken extends Error {}

export interface McpServerWrite {
  name?: string;
  transport?: McpTransport;
  command?: string | null;
  args?: string[];
  env?: Record<string, string>;
  url?: string | null;
  enabled?: boolean;
  approval?: McpApproval;
  /** undefined keeps the stored headers; null removes them. */
  headers?: { names: string[]; secret: EncryptedSecret } | null;
}

const SELECT = {
  id: true, workspaceId: true, name: true, transport: true, command: true, args: true, env: true, url: true, headerNames: true,
  enabled: true, approval: true, statusState: true, statusMessage: true, statusTools: true, toolCount: true, checkedAt: true,
  createdById: true, createdAt: true, updatedAt: true,
} as const;
type Row = Prisma.McpServerGetPayload<{ select: typeof SELECT }>;
const COLUMNS = sqlColumns(SELECT);

function toRecord({ statusState, statusMessage, statusTools, toolCount, checkedAt, env, transport, approval, ...rest }: Row): McpServerRecord {
  return {
    ...rest,
    transport: transport as McpTransport,
    approval: approval as McpApproval,
    env: env as Record<string, string>,
    // A disabled server is never connected: its status says so whatever the last check found.
    status: { state: rest.enabled ? (statusState as McpServerState) : 'disabled', toolCount, tools: statusTools, message: statusMessage, checkedAt },
  };
}

function headerColumns(headers: McpServerWrite['headers']) {
  if (headers === undefined) return {};
  if (headers === null) return { headerNames: [], ciphertext: null, iv: null, authTag: null, keyId: null };
  const { secret } = headers;
  return { headerNames: headers.names, ciphertext: Buffer.from(secret.ciphertext), iv: Buffer.from(secret.iv), authTag: Buffer.from(secret.authTag), keyId: secret.keyId };
}

function columns({ headers, env, ...rest }: McpServerWrite) {
  // A changed configuration has not been checked yet: the old status would describe another server.
  return { ...rest, ...(env ? { env: env as Prisma.InputJsonValue } : {}), ...headerColumns(headers), statusState: 'unknown', statusMessage: null, statusTools: [], toolCount: null, checkedAt: null };
}

function mapped(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw new McpServerNameTaken();
  throw err;
}

// Every query names the workspace: a server id of another workspace reads as missing, never as it.
@Injectable()
export class McpServerRepository {
  constructor(private readonly prisma: PrismaService) {}

  async listByWorkspace(workspaceId: string): Promise<McpServerRecord[]> {
    const rows = await this.prisma.mcpServer.findMany({ where: { workspaceId }, orderBy: [{ name: 'asc' }], select: SELECT });
    return rows.map(toRecord);
  }

  /** The enabled servers of a workspace with their sealed headers, by name: what a run connects to. */
  async listEnabledWithSecrets(workspaceId: string): Promise<(McpServerRecord & { secret: EncryptedSecret | null })[]> {
    // Direct SQL (sql.ts): every run's start reads this.
    const rows = await this.prisma.sql.rows<Row & { ciphertext: Uint8Array | null; iv: Uint8Array | null; authTag: Uint8Array | null; keyId: string | null }>(sql`
      SELECT ${COLUMNS}, "ciphertext", "iv", "authTag", "keyId" FROM "McpServer"
      WHERE "workspaceId" = ${workspaceId}::uuid AND "enabled" ORDER BY "name" ASC`);
    return rows.map(({ ciphertext, iv, authTag, keyId, ...row }) => ({
      ...toRecord(row),
      secret: ciphertext && iv && authTag && keyId ? { ciphertext, iv, authTag, keyId } : null,
    }));
  }

  countByWorkspace(workspaceId: string): Promise<number> {
    return this.prisma.mcpServer.count({ where: { workspaceId } });
  }

  async findInWorkspace(workspaceId: string, id: string): Promise<McpServerRecord | null> {
    const row = await this.prisma.mcpServer.findFirst({ where: { id, workspaceId }, select: SELECT });
    return row ? toRecord(row) : null;
  }

  /** `id` is chosen by the caller: the headers are sealed to it before the row exists. */
  async create(data: McpServerWrite & { id: string; workspaceId: string; name: string; transport: McpTransport; createdById: string }): Promise<McpServerRecord> {
    const { id, workspaceId, createdById, ...write } = data;
    const row = await this.prisma.mcpServer.create({ data: { id, workspaceId, createdById, ...columns(write) } as Prisma.McpServerUncheckedCreateInput, select: SELECT }).catch(mapped);
    return toRecord(row);
  }

  /** Null when no such server is in the workspace. */
  async update(workspaceId: string, id: string, data: McpServerWrite): Promise<McpServerRecord | null> {
    const { count } = await this.prisma.mcpServer.updateMany({ where: { id, workspaceId }, data: columns(data) }).catch(mapped);
    return count ? this.findInWorkspace(workspaceId, id) : null;
  }

  async remove(workspaceId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.mcpServer.deleteMany({ where: { id, workspaceId } });
    return count > 0;
  }

  /** A check was asked for (the worker's McpCheckJob records its outcome); null when no such server is in the workspace. */
  async markChecking(workspaceId: string, id: string): Promise<McpServerRecord | null> {
    const current = await this.prisma.mcpServer.findFirst({ where: { id, workspaceId }, select: { updatedAt: true } });
    if (!current) return null;
    await this.prisma.mcpServer.updateMany({ where: { id, workspaceId }, data: { statusState: 'checking', statusMessage: null, updatedAt: current.updatedAt } });
    return this.findInWorkspace(workspaceId, id);
  }

  /**
   * Records a real check's outcome. `configuredAt` is the updatedAt the checker read: a server
   * edited meanwhile keeps its (unknown) status rather than the old configuration's.
   */
  async recordStatus(
    workspaceId: string,
    id: string,
    configuredAt: Date,
    status: { state: 'connected' | 'error'; message: string | null; tools: string[]; toolCount: number | null },
  ): Promise<void> {
    // updatedAt is set by hand to what it was: a status is not a configuration change.
    await this.prisma.mcpServer.updateMany({
      where: { id, workspaceId, updatedAt: configuredAt },
      data: { statusState: status.state, statusMessage: status.message, statusTools: status.tools, toolCount: status.toolCount, checkedAt: new Date(), updatedAt: configuredAt },
    });
  }
}
