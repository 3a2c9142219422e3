import type { FormEvent, ReactNode } from 'react';
import './invites.css';

/** The card of the pages one reaches signed out (sign-up by invitation, password reset), as the sign-in page looks. */
export function PublicCard({ title, onSubmit, children }: { title: string; onSubmit?: (event: FormEvent) => void; children: ReactNode }) {
  const body = (
    <>
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">A</span> Aviary
      </div>
      <h1>{title}</h1>
      {children}
    </>
  );
  return (
    <main className="signin">
      {onSubmit ? (
        <form className="signin-card" onSubmit={onSubmit} noValidate>
          {body}
        </form>
      ) : (
        <div className="signin-card">{body}</div>
      )}
    </main>
  );
}
