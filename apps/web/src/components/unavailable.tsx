import Link from 'next/link';
import type { ApiError } from '../lib/api-client';
import { FormError } from './form-error';

// A team or workspace the user cannot see answers 404 (the api does not reveal that it exists).
export function Unavailable({ what, error }: { what: 'Team' | 'Workspace'; error: ApiError }) {
  const message =
    error.status === 404 ? `This ${what.toLowerCase()} does not exist or you do not have access to it.` : error.message;
  return (
    <div className="panel">
      <h1>{what} unavailable</h1>
      <FormError message={message} />
      <p>
        <Link href="/teams">Back to your teams</Link>
      </p>
    </div>
  );
}
