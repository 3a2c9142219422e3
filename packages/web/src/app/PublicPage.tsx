import { InvitePage } from './InvitePage';
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from './PasswordPages';
import type { PublicRoute } from './route';
import type { Session } from './session';

/** The pages one reaches from a link, signed out: sign-up by invitation, a forgotten password, email verification. */
export function PublicPage({ route, onSignedIn }: { route: PublicRoute; onSignedIn: (session: Session) => void }) {
  switch (route.page) {
    case 'invite':
      return <InvitePage token={route.token} onSignedIn={onSignedIn} />;
    case 'forgotPassword':
      return <ForgotPasswordPage />;
    case 'resetPassword':
      return <ResetPasswordPage onSignedIn={onSignedIn} />;
    case 'verifyEmail':
      return <VerifyEmailPage />;
  }
}
