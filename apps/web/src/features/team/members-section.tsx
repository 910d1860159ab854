'use client';

import { ConfirmButton } from '../../components/confirm-button';
import { DataTable, ListState } from '../../components/data-table';
import { FormError } from '../../components/form-error';
import { api } from '../../lib/api-client';
import type { ListResponse, Member, TeamRole } from '@h/contracts';
import { formatDate } from '../../lib/format';
import { canManage, ROLE_LABELS } from '../../lib/roles';
import { useSession } from '../../lib/session-context';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { InvitationsSection } from './invitations-section';
import { grantableRoles } from './member-roles';
import { SETTINGS_SECTIONS } from '@h/contracts/settings-sections';

function canEdit(myRole: TeamRole, member: Member): boolean {
  return canManage(myRole) && (member.role !== 'owner' || myRole === 'owner');
}

export function MembersSection({ base, role }: { base: string; role: TeamRole }) {
  const members = useApiQuery<ListResponse<Member>>(base + '/members');
  const { me } = useSession();
  const items = members.data?.items;

  // Changing one's own membership changes what this page may show: start over from the server.
  const onChanged = (member: Member, removed: boolean) => {
    if (member.userId !== me.user.id) return members.reload();
    window.location.assign(removed ? '/teams' : window.location.pathname);
  };

  return (
    <section className="panel" aria-labelledby={SETTINGS_SECTIONS.members.id}>
      <h2 id={SETTINGS_SECTIONS.members.id}>{SETTINGS_SECTIONS.members.title}</h2>
      <ListState query={members} loading="Loading members…" />
      {items ? (
        <DataTable label="Members" columns={['Name', 'Email', 'Role', 'Joined']} actions>
          {items.map((m) => (
            <MemberRow key={m.userId} base={base} member={m} myRole={role} isMe={m.userId === me.user.id} onChanged={onChanged} />
          ))}
        </DataTable>
      ) : null}
      {canManage(role) ? <InvitationsSection base={base} myRole={role} /> : null}
    </section>
  );
}

function MemberRow({
  base,
  member,
  myRole,
  isMe,
  onChanged,
}: {
  base: string;
  member: Member;
  myRole: TeamRole;
  isMe: boolean;
  onChanged: (member: Member, removed: boolean) => void;
}) {
  const change = useAction();
  const remove = useAction();
  const editable = canEdit(myRole, member);
  // Anyone may leave; removing others is for admins.
  const removable = editable || isMe;
  const path = `${base}/members/${encodeURIComponent(member.userId)}`;
  const nameId = `member-${member.userId}-name`;

  const onRoleChange = (next: TeamRole) =>
    void change.run(async () => {
      await api.patch<Member>(path, { role: next });
      onChanged(member, false);
    });

  return (
    <tr>
      <td id={nameId}>
        {member.name}
        {isMe ? <span className="muted small"> (you)</span> : null}
      </td>
      <td className="mono">{member.email}</td>
      <td>
        {editable ? (
          <>
            <label htmlFor={`${nameId}-role`} className="visually-hidden">
              Role of {member.name}
            </label>
            <select
              id={`${nameId}-role`}
              className="select-compact"
              value={member.role}
              disabled={change.pending}
              onChange={(e) => onRoleChange(e.target.value as TeamRole)}
            >
              {grantableRoles(myRole).map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span className="badge">{ROLE_LABELS[member.role] ?? member.role}</span>
        )}
      </td>
      <td>{formatDate(member.createdAt)}</td>
      <td className="cell-actions">
        {removable ? (
          <ConfirmButton
            label={isMe ? 'Leave team' : 'Remove'}
            confirmLabel={isMe ? 'Confirm leave' : 'Confirm remove'}
            pendingLabel="Removing…"
            pending={remove.pending}
            describedBy={nameId}
            onConfirm={() =>
              void remove.run(async () => {
                await api.delete(path);
                onChanged(member, true);
              })
            }
          />
        ) : null}
        <FormError message={change.error ?? remove.error} />
      </td>
    </tr>
  );
}
