import { type RouteSpec, dashboardRoute, route } from '../../http/route-spec.ts';

/** The pages of one's account: signing in and out, password resets, two-factor, passkeys. */
export const IDENTITY_ROUTES: readonly RouteSpec[] = [
  route('GET', '/dashboard/sign-in', dashboardRoute('signInPage', 'public')),
  route('POST', '/dashboard/sign-in', dashboardRoute('signIn', 'public', true)),
  route('POST', '/dashboard/sign-out', dashboardRoute('signOut', 'session', true)),
  route('GET', '/dashboard/forgot-password', dashboardRoute('forgotPasswordPage', 'public')),
  route('POST', '/dashboard/forgot-password', dashboardRoute('requestPasswordReset', 'public', true)),
  route('GET', '/dashboard/reset-password', dashboardRoute('resetPasswordPage', 'public')),
  route('POST', '/dashboard/reset-password', dashboardRoute('resetPassword', 'public', true)),
  route('GET', '/dashboard/account', dashboardRoute('accountPage', 'session')),
  route('POST', '/dashboard/account/password', dashboardRoute('changePassword', 'session', true)),
  route(
    'POST',
    '/dashboard/account/sign-out-everywhere',
    dashboardRoute('signOutEverywhere', 'session', true),
  ),
  route('GET', '/dashboard/sign-in/two-factor', dashboardRoute('twoFactorSignInPage', 'public')),
  route('POST', '/dashboard/sign-in/two-factor', dashboardRoute('twoFactorSignIn', 'public', true)),
  route('GET', '/dashboard/account/two-factor', dashboardRoute('twoFactorPage', 'session')),
  route('POST', '/dashboard/account/two-factor', dashboardRoute('enableTwoFactor', 'session', true)),
  route('POST', '/dashboard/account/two-factor/disable', dashboardRoute('disableTwoFactor', 'session', true)),
  route(
    'POST',
    '/dashboard/account/two-factor/recovery-codes',
    dashboardRoute('regenerateRecoveryCodes', 'session', true),
  ),
  route(
    'POST',
    '/dashboard/account/passkeys/options',
    dashboardRoute('passkeyRegistrationOptions', 'session', true),
  ),
  route('POST', '/dashboard/account/passkeys', dashboardRoute('addPasskey', 'session', true)),
  route('POST', '/dashboard/account/passkeys/remove', dashboardRoute('removePasskey', 'session', true)),
  route('POST', '/dashboard/sign-in/passkey/options', dashboardRoute('passkeySignInOptions', 'public', true)),
  route('POST', '/dashboard/sign-in/passkey', dashboardRoute('passkeySignIn', 'public', true)),
  route(
    'POST',
    '/dashboard/sign-in/two-factor/passkey/options',
    dashboardRoute('twoFactorPasskeyOptions', 'public', true),
  ),
  route(
    'POST',
    '/dashboard/sign-in/two-factor/passkey',
    dashboardRoute('twoFactorPasskeySignIn', 'public', true),
  ),
];
