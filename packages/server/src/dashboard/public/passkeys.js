// Passkeys' browser side: asks the dashboard for options (a JSON answer to a form post with the CSRF
// token), hands them to navigator.credentials, and posts the credential's JSON back with its form.
// The forms stay hidden where the browser has no WebAuthn.

const fromBase64url = (text) => {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

const toBase64url = (buffer) => {
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const withIds = (list = []) => list.map((item) => ({ ...item, id: fromBase64url(item.id) }));

const creationOptions = (options) => ({
  ...options,
  challenge: fromBase64url(options.challenge),
  user: { ...options.user, id: fromBase64url(options.user.id) },
  excludeCredentials: withIds(options.excludeCredentials),
});

const requestOptions = (options) => ({
  ...options,
  challenge: fromBase64url(options.challenge),
  allowCredentials: withIds(options.allowCredentials),
});

/** The credential as the server reads it (the shape of PublicKeyCredential.toJSON()). */
function credentialJson(credential) {
  const { response } = credential;
  const json = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: { clientDataJSON: toBase64url(response.clientDataJSON) },
  };
  if (response.attestationObject) {
    json.response.attestationObject = toBase64url(response.attestationObject);
    json.response.transports = response.getTransports?.() ?? [];
  } else {
    json.response.authenticatorData = toBase64url(response.authenticatorData);
    json.response.signature = toBase64url(response.signature);
    if (response.userHandle) json.response.userHandle = toBase64url(response.userHandle);
  }
  return json;
}

const problems = {
  NotAllowedError: 'The passkey request was cancelled or timed out.',
  InvalidStateError: 'This authenticator holds a passkey of this account already.',
};

if (window.PublicKeyCredential) {
  for (const note of document.querySelectorAll('[data-passkey-unsupported]')) note.hidden = true;
  for (const form of document.querySelectorAll('form[data-passkey]')) {
    form.hidden = false;
    const problem = form.previousElementSibling?.matches('[data-passkey-problem]')
      ? form.previousElementSibling
      : undefined;
    const show = (text) => {
      if (!problem) return;
      problem.textContent = text;
      problem.setAttribute('role', 'alert');
      problem.hidden = false;
    };
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (form.dataset.busy) return;
      form.dataset.busy = 'yes';
      try {
        const answer = await fetch(form.dataset.options, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
          // The form's fields (the CSRF token, and where one is asked the password) go with the request.
          body: new URLSearchParams(new FormData(form)),
        });
        if (!answer.ok) {
          const body = await answer.json().catch(() => ({}));
          show(body.problem ?? 'The passkey request was refused: reload the page and try again.');
          return;
        }
        const options = await answer.json();
        const credential =
          form.dataset.passkey === 'create'
            ? await navigator.credentials.create({ publicKey: creationOptions(options) })
            : await navigator.credentials.get({ publicKey: requestOptions(options) });
        form.elements.credential.value = JSON.stringify(credentialJson(credential));
        // The password was for the options: the answer to their challenge is the proof now.
        if (form.elements.password) form.elements.password.value = '';
        form.submit();
      } catch (error) {
        show(problems[error?.name] ?? 'The passkey could not be used.');
      } finally {
        delete form.dataset.busy;
      }
    });
  }
}
