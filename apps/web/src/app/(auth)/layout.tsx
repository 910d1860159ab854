import type { ReactNode } from 'react';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-brand">
        <span className="brand-mark" aria-hidden="true">
          H
        </span>
        <span className="auth-tagline">Your team&apos;s AI coding agent, on your own servers.</span>
      </div>
      {children}
    </main>
  );
}
