'use client';

import { type FormEvent, useState } from 'react';
import { DataTable, ListState } from '../../components/data-table';
import { Field } from '../../components/field';
import { RevokeCell } from '../../components/revoke-cell';
import { FormError } from '../../components/form-error';
import { SelectField, type SelectOption } from '../../components/select-field';
import { ShownOnce } from '../../components/shown-once';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { CreatedInvitation, Invitation, ListResponse, TeamRole } from '@h/contracts';
import { formatDate } from '../../lib/format';
import { ROLE_LABELS } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';
import { grantableRoles, ROLE_HINTS } from './member-roles';

const USES: SelectOption[] = [
  { value: '1', label: 'One person' },
  { value: '5', label: 'Up to 5 people' },
  { value: '25', label: 'Up to 25 people' },
];
const EXPIRY: SelectOption[] = [
  { value: '1', label: '1 day' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
];

// People join through a link an admin makes and sends them; H never tells the admin whether an
// email has an account. Shown to admins and owners only (the api answers 403 to others).
export function InvitationsSection({ base, myRole, onChanged }: { base: string; myRole: TeamRole; onChanged?: () => void }) {
  const pending = useApiQuery<ListResponse<Invitation>>(base + '/invitations');
  const [created, setCreated] = useState<CreatedInvitation>();
  const items = pending.data?.items;

  return (
    <div className="subform" aria-labelledby="invite-heading">
      <h3 id="invite-heading">Invite people</h3>
      <p className="muted small">Make a link and send it to them: they sign in or create an account, and join with the role you pick.</p>
      {created ? <NewInvitationLink created={created} onDone={() => setCreated(undefined)} /> : null}
      <InviteForm
        base={base}
        myRole={myRole}
        onCreated={(result) => {
          setCreated(result);
          pending.reload();
          onChanged?.();
        }}
      />
      <ListState query={pending} empty="No pending invitations." />
      {items && items.length > 0 ? (
        <DataTable label="Pending invitations" columns={['Role', 'For', 'Used', 'Expires', 'By']} actions>
          {items.map((i) => (
            <InvitationRow key={i.id} base={base} invitation={i} onRevoked={pending.reload} />
          ))}
        </DataTable>
      ) : null}
    </div>
  );
}

function InvitationRow({ base, invitation, onRevoked }: { base: string; invitation: Invitation; onRevoked: () => void }) {
  const labelId = `invitation-${invitation.id}`;
  return (
    <tr>
      <td id={labelId}>
        <span className="badge">{ROLE_LABELS[invitation.role]}</span>
      </td>
      <td className="mono">{invitation.email ?? 'anyone with the link'}</td>
      <td>
        {invitation.uses} of {invitation.maxUses}
      </td>
      <td>{formatDate(invitation.expiresAt)}</td>
      <td>{invitation.createdByName}</td>
      <RevokeCell path={`${base}/invitations/${encodeURIComponent(invitation.id)}`} describedBy={labelId} onRevoked={onRevoked} />
    </tr>
  );
}

function NewInvitationLink({ created, onDone }: { created: CreatedInvitation; onDone: () => void }) {
  // The page's own origin: the address people reach this H at, whatever H_PUBLIC_URL says.
  const link = `${window.location.origin}/invite/${created.token}`;
  const role = ROLE_LABELS[created.invitation.role].toLowerCase();
  return (
    <ShownOnce
      id="new-invitation-link"
      label="Invitation link"
      message={`Invitation link for a ${role}. Copy it now: it will not be shown again.`}
      value={link}
      onDone={onDone}
    />
  );
}

function InviteForm({ base, myRole, onCreated }: { base: string; myRole: TeamRole; onCreated: (created: CreatedInvitation) => void }) {
  const [role, setRole] = useState<TeamRole>('member');
  const [email, setEmail] = useState('');
  const [uses, setUses] = useState('1');
  const [days, setDays] = useState('7');
  const action = useAction();
  const roles: SelectOption[] = grantableRoles(myRole).map((r) => ({ value: r, label: `${ROLE_LABELS[r]} — ${ROLE_HINTS[r]}` }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      const body = { role, maxUses: Number(uses), expiresInDays: Number(days), ...(email.trim() ? { email: email.trim() } : {}) };
      onCreated(await api.post<CreatedInvitation>(base + '/members', body));
      setEmail('');
    });
  };

  return (
    <form onSubmit={onSubmit} className="form" aria-labelledby="invite-heading">
      <div className="form-row">
        <SelectField id="invite-role" label="Role" value={role} options={roles} onChange={(v) => setRole(v as TeamRole)} />
        <SelectField id="invite-uses" label="Who may use it" value={uses} options={USES} onChange={setUses} />
        <SelectField id="invite-expiry" label="Expires after" value={days} options={EXPIRY} onChange={setDays} />
      </div>
      <Field
        id="invite-email"
        label="Only for this email (optional)"
        type="email"
        maxLength={254}
        value={email}
        hint="Leave empty to let whoever gets the link join."
        onChange={(e) => setEmail(e.target.value)}
      />
      <FormError message={action.error} />
      <div>
        <SubmitButton pending={action.pending} pendingLabel="Creating link…">
          Create invitation link
        </SubmitButton>
      </div>
    </form>
  );
}
