// Shapes of the H REST API as the browser sees them (see ARCHITECTURE.md, "The public HTTP
// surface"). Dates arrive as ISO strings.

export type TeamRole = 'owner' | 'admin' | 'member' | 'viewer';
export type TokenScope = 'read' | 'write' | 'admin';
export type WorkspaceStatus = 'provisioning' | 'ready' | 'error';

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface MeResponse {
  user: User;
  teams: { id: string; name: string; slug: string; role: TeamRole }[];
  /** The first account of this H: the one quota messages tell people to ask. */
  instanceAdmin?: boolean;
}

export interface AuthResponse {
  user: User;
  /** The team an invitation given with the sign-up joined. */
  joined?: { teamId: string; role: TeamRole };
}

export interface Team {
  id: string;
  name: string;
  slug: string;
  role: TeamRole;
  createdAt: string;
}

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: TeamRole;
  createdAt: string;
}

export interface Workspace {
  id: string;
  teamId: string;
  name: string;
  description: string;
  status: WorkspaceStatus;
  /** Why setup failed, or what it is doing; null when there is nothing to say. */
  statusMessage: string | null;
  networkEnabled: boolean;
  /** Host names the sandbox may reach through the egress proxy when networkEnabled. */
  allowedHosts: string[];
  setupAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  workspaceId: string | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CreatedApiToken {
  token: ApiToken;
  secret: string;
}

export interface ProviderStatus {
  provider: string;
  configured: boolean;
  updatedAt: string | null;
}

export interface ListResponse<T> {
  items: T[];
}

export interface Invitation {
  id: string;
  role: TeamRole;
  /** Only an account with this email may accept it. */
  email: string | null;
  maxUses: number;
  uses: number;
  expiresAt: string;
  createdAt: string;
  createdByName: string;
}

export interface CreatedInvitation {
  invitation: Invitation;
  /** The secret part of /invite/<token>; shown once. */
  token: string;
  url: string;
}

export interface InvitationPreview {
  teamName: string;
  role: TeamRole;
  email: string | null;
  invitedBy: string;
  expiresAt: string;
}

export interface Quota {
  used: number;
  limit: number;
  /** The instance setting that sets the limit. */
  setting: string;
}

export interface TeamQuotas {
  workspaces: Quota;
  runningSandboxes: Quota;
  activeRuns: Quota;
}
