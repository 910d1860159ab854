// Accounts, teams, members and API tokens as they travel, plus the names and limits the browser
// must agree on with the server (cookies, the CSRF header, password length). The server's DTO
// classes implement these (`<Date>` form, see session-api.ts); the web imports them type-only.
// Zod-free: the browser may import the constants.

export const SESSION_COOKIE = 'h_session';
/** Readable by the page; its value goes back as the CSRF_HEADER on every cookie-authenticated write. */
export const CSRF_COOKIE = 'h_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

export const TEAM_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * What an API token may do, lowest first. Each scope includes every scope before it (`write`
 * includes `run` and `read`, `admin` includes all): `scopeIncludes` is the one place that says so.
 */
export const TOKEN_SCOPES = ['read', 'run', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** One line per scope, for the token form and the API docs. */
export const TOKEN_SCOPE_INFO: Record<TokenScope, { label: string; allows: string }> = {
  read: { label: 'Read', allows: 'See workspaces, files, sessions, runs, events and usage; change nothing.' },
  run: {
    label: 'Run the agent',
    allows:
      "Read, plus drive the agent: start sessions and runs, send messages, cancel runs, answer its permission requests. The agent works within the session's permission mode; the token itself edits no files or settings.",
  },
  write: { label: 'Read and write', allows: 'Run, plus edit directly: files, git, terminals, sessions and workspace settings.' },
  admin: { label: 'Admin', allows: 'Write, plus what a team admin may do: provider keys, presets, git credentials, deleting workspaces, the audit log.' },
};

/** Whether a token holding `granted` may do what needs `needed`. */
export function scopeIncludes(granted: readonly string[], needed: TokenScope): boolean {
  const rank = TOKEN_SCOPES.indexOf(needed);
  return granted.some((s) => TOKEN_SCOPES.indexOf(s as TokenScope) >= rank);
}

export interface User {
  id: string;
  email: string;
  name: string;
}

/** Who may sign up (SIGNUP_POLICY): anyone, only with an invitation link, or nobody (the admin makes accounts). */
export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

/**
 * What a person without an invitation may do on the sign-up page now: the policy, except that the
 * first account of a fresh instance is `open` under any policy.
 */
export type SignupAvailability = SignupPolicy;

export interface SignupOptionsResponse {
  signup: SignupAvailability;
}

export interface AuthResponse {
  user: User;
  /** The team an invitation given with the sign-up joined. */
  joined?: { teamId: string; role: TeamRole };
}

export interface MeTeam {
  id: string;
  name: string;
  slug: string;
  role: TeamRole;
}

export interface MeResponse {
  user: User;
  teams: MeTeam[];
  /** How this request was authenticated. */
  via: 'user' | 'token';
  /** When via a token: what it may do (its scopes) and the workspace it is bound to, if any. */
  token?: { scopes: TokenScope[]; workspaceId: string | null };
  /** The first account of this H: the one quota messages tell people to ask. */
  instanceAdmin?: boolean;
}

export interface Team<TDate = string> {
  id: string;
  name: string;
  slug: string;
  /** The caller's role. */
  role: TeamRole;
  createdAt: TDate;
}

export interface Member<TDate = string> {
  userId: string;
  email: string;
  name: string;
  role: TeamRole;
  createdAt: TDate;
}

export interface ApiToken<TDate = string> {
  id: string;
  name: string;
  /** Public part of the token, shown in lists. */
  prefix: string;
  scopes: TokenScope[];
  workspaceId: string | null;
  expiresAt: TDate | null;
  lastUsedAt: TDate | null;
  createdById: string;
  createdAt: TDate;
}

export interface CreatedApiToken<TDate = string> {
  token: ApiToken<TDate>;
  /** The whole token. Shown once. */
  secret: string;
}

export interface Invitation<TDate = string> {
  id: string;
  role: TeamRole;
  /** Only an account with this email may accept it. */
  email: string | null;
  maxUses: number;
  uses: number;
  expiresAt: TDate;
  createdAt: TDate;
  /** Name of the person who made it. */
  createdByName: string;
}

export interface CreatedInvitation<TDate = string> {
  invitation: Invitation<TDate>;
  /** The secret part of /invite/<token>; shown once. */
  token: string;
  url: string;
}

export interface InvitationPreview<TDate = string> {
  teamName: string;
  role: TeamRole;
  email: string | null;
  invitedBy: string;
  expiresAt: TDate;
}

export interface Quota {
  used: number;
  limit: number;
  /** The instance setting that sets the limit, e.g. TEAM_MAX_WORKSPACES. */
  setting: string;
}

export interface TeamQuotas {
  workspaces: Quota;
  /** Sandboxes running at once. */
  runningSandboxes: Quota;
  /** Agent runs queued or running at once. */
  activeRuns: Quota;
}
