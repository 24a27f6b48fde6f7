// Offline use and updates, for the static site (`npm run dist`: only there
// does assets.js name a service worker). The worker keeps every file of its
// build; a visit after a new deploy gets the new build from the network and
// this note says so, once: "isoperf was updated".

import { BUILD, SERVICE_WORKER } from './assets.js';
import { el } from './dom.js';

const SEEN = 'isoperf.build';

/** Registers the service worker (over http(s) only) and notes a new build. */
export function registerOffline() {
  if (!SERVICE_WORKER || !('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register(SERVICE_WORKER).catch(() => {
    // Without a worker the site still works online; nothing to tell the user.
  });
  let before = null;
  try {
    before = localStorage.getItem(SEEN);
    localStorage.setItem(SEEN, BUILD);
  } catch {
    return; // storage refused: no note
  }
  if (before && before !== BUILD) {
    const note = el('p', { class: 'update-note', role: 'status' },
      `isoperf was updated since your last visit (build ${BUILD}). Links keep opening the same view. `,
      el('button', { type: 'button', text: 'Dismiss', onclick: () => note.remove() }));
    document.querySelector('main')?.prepend(note);
  }
}
