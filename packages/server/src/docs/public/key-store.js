// The API key typed into the page: kept in memory and in this tab's sessionStorage only, never in
// localStorage, cookies or URLs. Every key field on the page shows the same value.

import { h } from './dom.js';

const STORAGE_KEY = 'petstore.docs.apiKey';

function sessionStore() {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function createKeyStore(storage = sessionStore()) {
  let value = '';
  try {
    value = storage?.getItem(STORAGE_KEY) ?? '';
  } catch {
    value = '';
  }
  const listeners = new Set();
  return {
    get: () => value,
    set(next, source) {
      value = next.trim();
      try {
        if (value) storage?.setItem(STORAGE_KEY, value);
        else storage?.removeItem(STORAGE_KEY);
      } catch {
        // Storage may be disabled; the key then lives in memory only.
      }
      for (const listener of listeners) if (listener !== source) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return listener;
    },
  };
}

/** A password field bound to the store. */
export function keyField(store, id) {
  const input = h('input', {
    id,
    type: 'password',
    class: 'api-key',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'ps_test_…',
  });
  input.value = store.get();
  const listener = store.subscribe((value) => {
    input.value = value;
  });
  input.addEventListener('input', () => store.set(input.value, listener));
  return input;
}
