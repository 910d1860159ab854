import type { MeResponse } from '@h/contracts/identity-api';
import type { ListResponse, WorkspaceResponse } from '@h/contracts/workspace-api';
import type { ApiClient } from './api-client';
import { CliError, EXIT } from './exit-codes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `--workspace` takes an id or a name. A name is looked up in the caller's teams (a token sees its
 * own team); a name found in two teams must be given as an id. A workspace-bound token cannot list
 * its team's workspaces, so it needs the id (or nothing more than the id it is bound to).
 */
export async function resolveWorkspace(client: ApiClient, ref: string | undefined): Promise<WorkspaceResponse> {
  if (!ref) throw new CliError('Which workspace? Pass --workspace NAME_OR_ID, set H_WORKSPACE, or save one with `h login --workspace`.', EXIT.usage);
  if (UUID.test(ref)) {
    try {
      return await client.get<WorkspaceResponse>(`/api/v1/workspaces/${ref}`);
    } catch (err) {
      if (err instanceof CliError && err.exitCode === EXIT.usage) throw new CliError(`No workspace ${ref} that this token can see.`, EXIT.usage);
      throw err;
    }
  }
  const me = await client.get<MeResponse>('/api/v1/me');
  const found: WorkspaceResponse[] = [];
  const seen: string[] = [];
  for (const team of me.teams) {
    let list: ListResponse<WorkspaceResponse>;
    try {
      list = await client.get<ListResponse<WorkspaceResponse>>(`/api/v1/teams/${team.id}/workspaces`);
    } catch (err) {
      if (err instanceof CliError && /TOKEN_WORKSPACE_BOUND/.test(err.message)) {
        throw new CliError('This token is bound to one workspace and cannot look names up: pass the workspace id instead.', EXIT.usage);
      }
      throw err;
    }
    seen.push(...list.items.map((w) => w.name));
    found.push(...list.items.filter((w) => w.name === ref));
  }
  if (found.length === 1) return found[0];
  if (found.length > 1) throw new CliError(`${found.length} workspaces are named "${ref}" (${found.map((w) => w.id).join(', ')}): pass the id.`, EXIT.usage);
  const known = seen.length ? `Known: ${seen.slice(0, 20).join(', ')}${seen.length > 20 ? ', …' : ''}.` : 'This token sees no workspace.';
  throw new CliError(`No workspace named "${ref}". ${known}`, EXIT.usage);
}
