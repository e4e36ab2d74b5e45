// Sign in (and sign up, when the operator opened it): email and password, errors said plainly.
import { useState } from 'preact/hooks';
import { account, ApiError, remember } from '../api.js';

export function SignIn(props: { onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event, path: 'session' | 'signup') => {
    event.preventDefault();
    const form = (event.target as HTMLElement).closest('form') as HTMLFormElement;
    const fields = new FormData(form);
    setBusy(true);
    setError(null);
    try {
      const answer = await account(path === 'session' ? 'POST' : 'POST', path,
        { email: fields.get('email'), password: fields.get('password') });
      remember(answer.csrfToken, answer.dashboardKey.key);
      props.onSignedIn();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The service did not answer; try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin" id="main">
      <h1>orderflow</h1>
      <form onSubmit={(e) => submit(e, 'session')}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password"
          required />
        {error && <p class="status error" role="alert">{error}</p>}
        <button type="submit" class="primary" disabled={busy}>Sign in</button>
      </form>
      <p class="hint">Accounts are created by the operator:{' '}
        <code>orderflow users create --email E --plan P</code></p>
    </main>
  );
}
