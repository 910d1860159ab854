import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="auth-page">
      <div className="panel auth-panel">
        <h1>Page not found</h1>
        <p className="muted">The address you opened does not exist in H.</p>
        <p>
          <Link href="/">Go to your teams</Link>
        </p>
      </div>
    </main>
  );
}
