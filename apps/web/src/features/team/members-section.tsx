'use client';

import { type FormEvent, useState } from 'react';
import { Field } from '../../components/field';
import { FormError } from '../../components/form-error';
import { SelectField } from '../../components/select-field';
import { SubmitButton } from '../../components/submit-button';
import { api } from '../../lib/api-client';
import type { ListResponse, Member, MemberRole, TeamRole } from '../../lib/api-types';
import { formatDate } from '../../lib/format';
import { canManage, ROLE_LABELS } from '../../lib/roles';
import { useAction } from '../../lib/use-action';
import { useApiQuery } from '../../lib/use-api-query';

const ASSIGNABLE_ROLES: { value: MemberRole; hint: string }[] = [
  { value: 'member', hint: 'works in workspaces and runs the agent' },
  { value: 'admin', hint: 'also manages members, tokens and keys' },
  { value: 'viewer', hint: 'read-only' },
];

export function MembersSection({ base, role }: { base: string; role: TeamRole }) {
  const members = useApiQuery<ListResponse<Member>>(base + '/members');
  const items = members.data?.items;

  return (
    <section className="panel" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      {members.error ? <FormError message={members.error.message} /> : null}
      {!items && !members.error ? <p className="muted">Loading members…</p> : null}
      {items ? (
        <table className="table" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {items.map((m) => (
              <tr key={m.userId}>
                <td>{m.name}</td>
                <td className="mono">{m.email}</td>
                <td>
                  <span className="badge">{ROLE_LABELS[m.role] ?? m.role}</span>
                </td>
                <td>{formatDate(m.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {canManage(role) ? <AddMemberForm base={base} onAdded={members.reload} /> : null}
    </section>
  );
}

function AddMemberForm({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [memberRole, setMemberRole] = useState<MemberRole>('member');
  const action = useAction();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void action.run(async () => {
      await api.post<Member>(base + '/members', { email: email.trim(), role: memberRole });
      setEmail('');
      onAdded();
    });
  };

  return (
    <form onSubmit={onSubmit} className="form subform" aria-labelledby="add-member">
      <h3 id="add-member">Add a member</h3>
      <p className="muted small">The person needs an H account already; they can sign up at this address.</p>
      <div className="form-row">
        <Field id="member-email" label="Email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <SelectField
          id="member-role"
          label="Role"
          value={memberRole}
          options={ASSIGNABLE_ROLES.map((r) => ({ value: r.value, label: `${ROLE_LABELS[r.value]} — ${r.hint}` }))}
          onChange={(value) => setMemberRole(value as MemberRole)}
        />
      </div>
      <FormError message={action.error} />
      <div>
        <SubmitButton pending={action.pending} pendingLabel="Adding…">
          Add member
        </SubmitButton>
      </div>
    </form>
  );
}
