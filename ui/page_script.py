"""Script run once when the page loads (`launch(js=...)`): accessibility repairs of Gradio's own markup.

Gradio 6.31 gives every radio button of a gr.Radio its own `name` ("radio-5", "radio-6", ...), so the
options are not one radio group: the arrow keys do not move between them, and a screen reader announces
each as "1 of 1". Its fieldset has no legend either, so the group's question ("Which one do you mean?")
is not its accessible name. The script gives the radios of each fieldset one name and labels the
fieldset by its label (and describes it by its info text), and keeps doing so as Gradio re-renders the
options and sets the names back (a MutationObserver on new nodes and on `name` attributes; the script only
writes a name that differs, so its own writes settle at once).
"""

from __future__ import annotations

from ui.example_photos import example_photos
from ui.keyboard import shortcuts_js_table
from ui.page_language import COOKIE, page_texts_json

# Reading a reply aloud in the browser with the Web Speech API (speechSynthesis): no server, no download,
# the system's own voices, offline. window.whichoneRead.newest() reads the newest reply at the rate the
# page's "Reading speed" slider gives; stop() stops; a reply that arrives while "Read each reply aloud" is
# ticked is read by the ask events' FOCUS_REPLY_JS (ui/ask_tab.py), with a voice of the reply's language
# (its `lang`, from the status line); where none is installed the default voice reads it and the status line
# under the buttons says so. Where the browser has no voices (or no speechSynthesis), that line says so.
READ_ALOUD_JS = """
() => {
  const status = (text) => {
    const line = document.querySelector('#wh-read-status');
    if (line) line.textContent = text;
  };
  // The speed the user last set, kept by the script: Gradio re-renders the slider (and may show its
  // server value again for a moment), so the inputs alone are not a reliable record of the choice.
  let chosenRate = null;
  const clampRate = (text) => {
    const value = parseFloat(text);
    return Number.isFinite(value) ? Math.min(2, Math.max(0.5, value)) : null;
  };
  const remember = (event) => {
    const target = event.target;
    if (target && target.closest && target.closest('#wh-read-rate') && target.tagName === 'INPUT') {
      const value = clampRate(target.value);
      if (value !== null) chosenRate = value;
    }
  };
  ['input', 'change', 'keyup'].forEach((type) => document.addEventListener(type, remember, true));
  const rate = () => {
    if (chosenRate !== null) return chosenRate;
    const input = document.querySelector('#wh-read-rate input[type=range], #wh-read-rate input');
    return (input && clampRate(input.value)) || 1;
  };
  const newestBot = () => {
    const bots = document.querySelectorAll('#wh-chat .message.bot');
    return bots.length ? bots[bots.length - 1] : null;
  };
  const newestText = () => {
    const bot = newestBot();
    return bot && window.whichoneMessageText ? window.whichoneMessageText(bot) : '';
  };
  // The newest reply's language: its own lang (set when it arrived), else the status line's.
  const newestLang = () => {
    const bot = newestBot();
    const line = document.querySelector('#wh-status .wh-status[lang]');
    const tagged = bot && (bot.matches('[lang]') ? bot : bot.querySelector('[lang]'));
    const lineLang = line && (line.dataset.replyLang || line.getAttribute('lang'));
    const lang = (tagged && tagged.getAttribute('lang')) || lineLang || '';
    return lang.toLowerCase();
  };
  const languageName = (lang) => {
    try {
      return new Intl.DisplayNames(['en'], { type: 'language' }).of(lang) || lang;
    } catch (e) { return lang; }
  };
  const speak = (text) => {
    const synth = window.speechSynthesis;
    if (!synth || typeof SpeechSynthesisUtterance === 'undefined') {
      status('This browser cannot read aloud (no speech synthesis).');
      return false;
    }
    if (!synth.getVoices().length) {
      status('This browser has no voices to read aloud with: install a system voice, or use a screen reader.'
      );
      return false;
    }
    if (!text) { status('There is no reply to read yet.'); return false; }
    synth.cancel();
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.rate = rate();
    const lang = newestLang();
    let note = '';
    if (lang) {
      utterance.lang = lang;
      const voice = synth.getVoices().find((v) => (v.lang || '').toLowerCase().split(/[-_]/)[0] === lang);
      if (voice) utterance.voice = voice;
      else note = ` No ${languageName(lang)} voice is installed: reading with the default voice.`;
    }
    utterance.onend = () => status('Finished reading.');
    synth.speak(utterance);
    status('Reading the reply aloud. Press Stop reading to stop.' + note);
    return true;
  };
  window.whichoneRead = {
    newest: () => speak(newestText()),
    onArrival: () => {
      const auto = document.querySelector('#wh-read-auto input[type=checkbox]');
      if (auto && auto.checked) speak(newestText());
    },
    stop: () => {
      if (window.speechSynthesis) window.speechSynthesis.cancel();
      status('Stopped reading.');
    },
  };
}
"""

# Downloading the conversation, in the browser: one HTML file (readable offline and by a screen reader)
# with the messages, who said each, the candidates' list and the marked photo embedded with its alt text.
# Built from the page itself, so the server writes nothing (the operator's saving is a separate opt-in).
DOWNLOAD_JS = """
() => {
  const status = (text) => {
    const line = document.querySelector('#wh-read-status');
    if (line) line.textContent = text;
  };
  const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
  })[c]);
  const asDataUrl = async (img) => {
    if (!img || !img.src) return null;
    try {
      const blob = await (await fetch(img.src)).blob();
      return await new Promise((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result);
        reader.onerror = () => resolve(null);
        reader.readAsDataURL(blob);
      });
    } catch (e) { return null; }
  };
  window.whichoneDownload = async () => {
    const nodes = document.querySelectorAll('#wh-chat [data-testid="user"], #wh-chat [data-testid="bot"]');
    const messages = [...nodes]
      .map((m) => ({
        who: m.dataset.testid === 'user' ? 'You' : 'whichone', text: window.whichoneMessageText(m) }))
      .filter((m) => m.text);
    if (!messages.length) { status('There is no conversation to download yet.'); return; }
    const overlay = document.querySelector('#wh-overlay img');
    const picture = await asDataUrl(overlay);
    const options = [...document.querySelectorAll('#wh-options label')].map((l) => l.innerText.trim())
      .filter(Boolean);
    const when = new Date();
    const stamp = when.toISOString().slice(0, 16).replace('T', ' ');
    const parts = [
      '<!doctype html>', '<html lang="en"><head><meta charset="utf-8">',
      `<title>whichone conversation, ${stamp}</title>`,
      '<style>body{font-family:sans-serif;max-width:50rem;margin:2rem auto;line-height:1.5}' +
      '.text{white-space:pre-wrap}img{max-width:100%}</style></head><body>',
      `<h1>whichone conversation, ${stamp}</h1>`,
    ];
    if (picture) {
      const alt = overlay.getAttribute('alt') || 'The photo with numbered candidates';
      parts.push('<h2>The photo with the candidates</h2>', `<img src="${picture}" alt="${escapeHtml(alt)}">`);
    }
    if (options.length) {
      // The list's own numbers ("4: the coin ..."), as on the photo: never renumbered.
      const items = options.map((o) => `<li>${escapeHtml(o)}</li>`);
      parts.push('<h2>Candidates</h2><ul>', ...items, '</ul>');
    }
    parts.push('<h2>Conversation</h2>');
    messages.forEach((m) => parts.push(
      `<section><h3>${m.who}</h3><p class="text">${escapeHtml(m.text)}</p></section>`));
    parts.push('</body></html>');
    const file = new Blob([parts.join('\\n')], { type: 'text/html' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file);
    link.download = `whichone-conversation-${stamp.replace(/[: ]/g, '-')}.html`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    const withPhoto = picture ? ', with the marked photo' : '';
    status(`Downloaded the conversation (${messages.length} messages${withPhoto}).`);
  };
}
"""

RADIO_GROUPS_JS = """
() => {
  const repair = () => {
    document.querySelectorAll('fieldset').forEach((set, index) => {
      const radios = set.querySelectorAll('input[type=radio]');
      if (!radios.length) return;
      const group = (set.id || `wh-fieldset-${index}`) + '-group';
      radios.forEach((radio) => { if (radio.name !== group) radio.name = group; });
      const label = set.querySelector('[data-testid="block-info"]');
      if (label) {
        label.id = label.id || group + '-label';
        if (set.getAttribute('aria-labelledby') !== label.id) set.setAttribute('aria-labelledby', label.id);
      }
      const info = set.querySelector('.info-text');
      if (info) {
        info.id = info.id || group + '-info';
        if (set.getAttribute('aria-describedby') !== info.id) set.setAttribute('aria-describedby', info.id);
      }
    });
  };
  repair();
  // Gradio sets each radio's name again when it re-renders the options: watch names too.
  new MutationObserver(repair).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['name'],
  });
}
"""


# The Benchmark tab's slice buttons (ui/bench_slices.py): a press writes the button's slice (and a nonce,
# so the same button twice is still a change) into the hidden #wh-bench-pick box, whose change event sets
# the slice controls and shows the slice's first example (the position line, a live region, says which).
SLICE_PICK_JS = """
() => {
  document.addEventListener('click', (event) => {
    const button = event.target && event.target.closest && event.target.closest('[data-wh-slice]');
    if (!button) return;
    const box = document.querySelector('#wh-bench-pick textarea, #wh-bench-pick input');
    if (!box) return;
    event.preventDefault();
    box.value = `${button.dataset.whSlice}#${Date.now()}`;
    box.dispatchEvent(new Event('input', { bubbles: true }));
    box.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
"""

# Who said what, and what the photo is, in the accessibility tree. Gradio 6.31 puts an aria-label on each
# chat message's div, which has no role, so a screen reader never hears it: each message becomes an article
# named "Your message" or "whichone's reply" (its text is read as before). The photo input's picture has
# alt="": an example photo gets its description (ui/examples/examples.json), any other "Your photo, W x H
# pixels".
NAMES_JS_TEMPLATE = """
() => {
  const examples = __EXAMPLES__;
  const name = () => {
    document.querySelectorAll('#wh-chat [data-testid="user"], #wh-chat [data-testid="bot"]').forEach((m) => {
      const label = m.dataset.testid === 'user' ? 'Your message' : "whichone's reply";
      if (m.getAttribute('role') !== 'article') m.setAttribute('role', 'article');
      if (m.getAttribute('aria-label') !== label) m.setAttribute('aria-label', label);
    });
    const img = document.querySelector('#wh-photo img');
    if (img && img.src) {
      const file = decodeURIComponent(img.src.split('/').pop() || '');
      const alt = examples[file] ||
        (img.naturalWidth ? `Your photo, ${img.naturalWidth} x ${img.naturalHeight} pixels` : 'Your photo');
      if (img.getAttribute('alt') !== alt) img.setAttribute('alt', alt);
      if (!img.naturalWidth && !img.dataset.whAltOnLoad) {
        img.dataset.whAltOnLoad = '1';
        img.addEventListener('load', name);
      }
    }
  };
  name();
  new MutationObserver(name).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['aria-label', 'alt', 'src'],
  });
}
"""

# The keyboard and screen-reader layer (issue 33; ui/keyboard.py has the shortcuts and the help panel):
# - skip links and Alt+Shift shortcuts (matched on event.code), each declared with aria-keyshortcuts;
# - one announcement per reply: focus moves to the reply (named, described by its text); the chat's own
#   live region and Gradio's sr-only status (which says "Loading" and the untranslated "common.complete")
#   are silenced, so the conversation and the one status line are all that speak;
# - Gradio's accordions say whether they are open (aria-expanded), their arrow is hidden from the tree;
# - the numbered photo is a plain image (its wrapper button leaves the tab order; the list is its twin);
# - "Answer about this one" is aria-disabled while nothing is chosen (it stays findable by Tab);
# - Start over asks first in a modal dialog; the conversation's text keeps the list numbers ("1.").
KEYBOARD_JS_TEMPLATE = """
() => {
  const shortcuts = __SHORTCUTS__;
  const focusFirst = (selector) => {
    const el = document.querySelector(selector);
    if (!el) return false;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center' });
    return document.activeElement === el;
  };
  document.addEventListener('click', (event) => {
    const link = event.target && event.target.closest && event.target.closest('a[data-wh-focus]');
    if (!link) return;
    event.preventDefault();
    if (link.dataset.whFocus.includes('wh-examples')) {
      const header = document.querySelector('#wh-examples button.label-wrap:not(.open)');
      if (header) header.click();
      setTimeout(() => focusFirst(link.dataset.whFocus), 150);
    } else {
      focusFirst(link.dataset.whFocus);
    }
  });
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return;
    const hit = shortcuts.find((s) => s.code === event.code);
    if (!hit) return;
    event.preventDefault();
    const all = document.querySelectorAll(hit.target);
    const el = hit.last ? all[all.length - 1] : all[0];  // the newest reply is the last one
    if (!el) return;
    if (hit.press) {
      if (el.disabled) {
        say(el.id === 'wh-undo' ? 'There is no choice to undo.' : 'Not available now.');
        return;
      }
      el.click();
      if (el.tagName === 'SUMMARY') el.focus();
    } else {
      if (el.matches('.message')) el.setAttribute('tabindex', '-1');
      el.focus({ preventScroll: true });
      el.scrollIntoView({ block: 'center' });
    }
  }, true);
  // Focus rescue: Gradio's dropdown re-renders as it closes, so Tab out of one (the Benchmark tab's Task
  // and Model, on a phone) left focus on the page body. Where a Tab ends on the body, focus goes on to the
  // next (Shift+Tab: previous) control after the block it left.
  const tabbable = () => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
    .filter((e) => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length
      && getComputedStyle(e).visibility !== 'hidden');
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    const from = target && target.closest && (target.closest('[id^="wh-"]') || target);
    const back = event.shiftKey;
    setTimeout(() => {
      if (!from || (document.activeElement && document.activeElement !== document.body)) return;
      const list = tabbable().filter((e) => !from.contains(e));
      const after = list.filter((e) => from.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
      const before = list.filter((e) => from.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING);
      const next = back ? before[before.length - 1] : after[0];
      if (next) next.focus();
    }, 150);
  }, true);
  const say = (text) => {
    const line = document.querySelector('#wh-status .wh-status');
    if (line) line.textContent = text;
  };
  // The text of a message as a screen reader hears it, with its list numbers ("1. ...").
  window.whichoneMessageText = (message) => {
    const copy = message.cloneNode(true);
    copy.querySelectorAll('button, [aria-hidden=true]').forEach((n) => n.remove());
    copy.querySelectorAll('ol').forEach((list) => {
      const start = parseInt(list.getAttribute('start') || '1', 10);
      [...list.children].forEach((item, i) => item.prepend(`${start + i}. `));
    });
    document.body.appendChild(copy);
    copy.style.position = 'absolute'; copy.style.left = '-10000px';
    const text = copy.innerText.trim();
    copy.remove();
    return text;
  };
  window.whichoneCopy = async () => {
    const nodes = document.querySelectorAll('#wh-chat [data-testid="user"], #wh-chat [data-testid="bot"]');
    const lines = [...nodes].map((m) =>
      `${m.dataset.testid === 'user' ? 'You' : 'whichone'}: ${window.whichoneMessageText(m)}`);
    const line = document.querySelector('#wh-read-status');
    if (!lines.length) { if (line) line.textContent = 'There is no conversation to copy yet.'; return; }
    try {
      await navigator.clipboard.writeText(lines.join('\\n\\n'));
      if (line) line.textContent = `Copied the conversation (${lines.length} messages).`;
    } catch (e) {
      if (line) line.textContent = 'This browser did not allow copying; use Download the conversation.';
    }
  };
  // Start over asks first: a modal dialog (focus stays in it; Escape keeps everything).
  const dialog = document.createElement('dialog');
  dialog.id = 'wh-confirm-dialog';
  dialog.setAttribute('aria-labelledby', 'wh-confirm-title');
  dialog.setAttribute('aria-describedby', 'wh-confirm-text');
  dialog.innerHTML = '<h2 id="wh-confirm-title">Start over?</h2>' +
    '<p id="wh-confirm-text">This forgets the photo and the whole conversation. ' +
    'Download the conversation first to keep it.</p>' +
    '<button type="button" id="wh-confirm-start-over">Yes, start over</button> ' +
    '<button type="button" id="wh-confirm-keep">No, keep going</button>';
  const keep = () => {
    dialog.close();
    say('Nothing was changed: the photo and the conversation are kept.');
    const b = document.querySelector('#wh-start-over');
    if (b) b.focus();
  };
  dialog.querySelector('#wh-confirm-keep').addEventListener('click', keep);
  dialog.addEventListener('cancel', (event) => { event.preventDefault(); keep(); });
  dialog.querySelector('#wh-confirm-start-over').addEventListener('click', () => {
    dialog.close();
    const now = document.querySelector('#wh-start-over-now');
    if (now) now.click();
  });
  document.body.appendChild(dialog);
  window.whichoneConfirmStartOver = () => {
    dialog.showModal();
    dialog.querySelector('#wh-confirm-start-over').focus();
  };
  const repair = () => {
    shortcuts.forEach((s) => {
      const el = document.querySelector(s.target.split(',')[0]);
      if (el && el.getAttribute('aria-keyshortcuts') !== s.keys) el.setAttribute('aria-keyshortcuts', s.keys);
    });
    // Gradio's own announcer, and the chat's live region (the reply is read as focus moves to it).
    const loud = '.sr-only[role=status], #wh-chat [aria-live]:not([aria-live=off]), '
      + '#wh-chat [role=log]:not([aria-live=off])';
    document.querySelectorAll(loud).forEach((r) => {
      r.setAttribute('aria-live', 'off');
      if (r.classList.contains('sr-only')) {
        r.removeAttribute('role');
        r.setAttribute('aria-hidden', 'true');
      }
    });
    document.querySelectorAll('#wh-chat [data-testid="bot"]').forEach((m, i) => {
      if (!m.id) m.id = `wh-reply-${i + 1}`;
      if (m.getAttribute('aria-describedby') !== m.id) m.setAttribute('aria-describedby', m.id);
    });
    document.querySelectorAll('button.label-wrap').forEach((b) => {
      const open = b.classList.contains('open') ? 'true' : 'false';
      if (b.getAttribute('aria-expanded') !== open) b.setAttribute('aria-expanded', open);
      b.querySelectorAll('.icon').forEach((i) => i.setAttribute('aria-hidden', 'true'));
    });
    // The numbered photo: Gradio wraps it in a button, which a click on a region still uses. For the
    // keyboard and a screen reader its text twin is the list right after it, so the button is out of the
    // tab order and hidden from the accessibility tree (a role of presentation on a button is not
    // allowed, and axe flags it).
    document.querySelectorAll('#wh-overlay button').forEach((b) => {
      if (b.querySelector('img') && b.getAttribute('aria-hidden') !== 'true') {
        b.setAttribute('tabindex', '-1');
        b.removeAttribute('role');
        b.setAttribute('aria-hidden', 'true');
      }
    });
    document.querySelectorAll('#wh-photo button:not([aria-label])').forEach((b) => {
      if (!b.innerText.trim() && b.title) b.setAttribute('aria-label', b.title);
    });
    document.querySelectorAll('#wh-photo svg, #wh-photo img:not([alt]):not([src])').forEach((i) => {
      if (!i.getAttribute('aria-hidden')) i.setAttribute('aria-hidden', 'true');
    });
    // Run files: a download link named by its file, not only by its size ("106.3 KB").
    document.querySelectorAll('[id^="wh-bench"] a[download]').forEach((a) => {
      const cell = a.closest('tr') && a.closest('tr').querySelector('.filename');
      const fromLink = decodeURIComponent((a.href || '').split('/').pop() || '');
      const file = (cell && cell.innerText.trim()) || fromLink;
      const label = `Download ${file} (${a.innerText.trim()})`;
      if (file && a.getAttribute('aria-label') !== label) a.setAttribute('aria-label', label);
    });
    // The results table and the plot's text scroll sideways on a phone: a named focus stop scrolls them.
    const boxes = '#wh-bench-table .prose, #wh-bench-plot-text .prose';
    document.querySelectorAll(boxes).forEach((box) => {
      // the outermost box only (Gradio nests one .prose in another)
      const inner = box.parentElement && box.parentElement.closest(boxes);
      if (box.getAttribute('tabindex') === '0' || inner) return;
      box.setAttribute('tabindex', '0');
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', box.closest('#wh-bench-table') ? 'Results table' : 'The plot in words');
    });
    const choose = document.querySelector('#wh-choose');
    if (choose) {
      const none = document.querySelector('#wh-options input:checked') ? 'false' : 'true';
      if (choose.getAttribute('aria-disabled') !== none) choose.setAttribute('aria-disabled', none);
    }
  };
  repair();
  new MutationObserver(repair).observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'aria-live', 'checked'],
  });
  document.addEventListener('change', repair, true);
}
"""


# The page's language (issue 36; ui/page_language.py has the order and the texts): the Settings choice (kept
# in localStorage, sent to the server as the cookie whichone_lang, which holds only the code), else the first
# of navigator.languages that the page has, else English. Applied with Gradio's own changeLocale (from
# Gradio's core module as the page loaded it: the same module, so the same locale store), which translates
# the components' I18n labels at once, Italian included; the script also sets <html lang>, renames the tab
# buttons (Gradio draws them once) and shows the page's own texts (data-wh-text, data-wh-label).
PAGE_LANGUAGE_JS_TEMPLATE = """
() => {
  const texts = __PAGE_TEXTS__;
  const codes = Object.keys(texts);
  const KEY = __KEY__;
  const stored = () => {
    try {
      const value = window.localStorage.getItem(KEY);
      return codes.includes(value) ? value : '';
    } catch (e) { return ''; }
  };
  const fromBrowser = () => {
    const tags = (navigator.languages && navigator.languages.length)
      ? navigator.languages : [navigator.language];
    for (const tag of tags) {
      const code = String(tag || '').toLowerCase().split(/[-_]/)[0];
      if (codes.includes(code)) return code;
    }
    return 'en';
  };
  const current = () => stored() || fromBrowser();
  let changeLocale = null;
  const gradioLocale = async () => {
    if (changeLocale) return changeLocale;
    const urls = [...document.querySelectorAll('script[src], link[href]')].map((e) => e.src || e.href)
      .concat(performance.getEntriesByType('resource').map((e) => e.name));
    const url = urls.find((u) => /\\/assets\\/core-[^/]+\\.js$/.test(u || ''));
    if (!url) return null;
    try {
      const core = await import(url);
      changeLocale = typeof core.changeLocale === 'function' ? core.changeLocale : null;
    } catch (e) { changeLocale = null; }
    return changeLocale;
  };
  const tabKeys = [['ask', 'tab_ask'], ['benchmark', 'tab_benchmark'], ['settings', 'tab_settings']];
  const show = () => {
    const lang = current();
    const table = texts[lang] || texts.en;
    const root = document.documentElement;
    if (root.getAttribute('lang') !== lang) root.setAttribute('lang', lang);
    document.querySelectorAll('[data-wh-text]').forEach((el) => {
      const text = table[el.dataset.whText];
      if (text && el.textContent !== text) el.textContent = text;
      const status = el.classList.contains('wh-status');
      if (status && el.getAttribute('lang') !== lang) el.setAttribute('lang', lang);
    });
    document.querySelectorAll('[data-wh-label]').forEach((el) => {
      const text = table[el.dataset.whLabel];
      if (text && el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
    });
    document.querySelectorAll('button[role=tab]').forEach((button) => {
      const id = (button.getAttribute('aria-controls') || button.id || '');
      const hit = tabKeys.find(([tab]) => id.includes(tab));
      const text = hit && table[hit[1]];
      if (text && button.textContent.trim() !== text) button.textContent = text;
    });
    const select = document.querySelector('#wh-page-language-select');
    if (select && !select.dataset.whShown) {
      select.dataset.whShown = '1';
      select.value = stored();
    }
  };
  const apply = async () => {
    const choice = stored();
    document.cookie = choice
      ? `${KEY}=${choice}; path=/; max-age=31536000; SameSite=Strict`
      : `${KEY}=; path=/; max-age=0; SameSite=Strict`;
    show();
    const locale = await gradioLocale();
    if (locale) locale(current());
  };
  document.addEventListener('change', (event) => {
    const select = event.target;
    if (!select || select.id !== 'wh-page-language-select') return;
    try {
      if (codes.includes(select.value)) window.localStorage.setItem(KEY, select.value);
      else window.localStorage.removeItem(KEY);
    } catch (e) { /* no storage: the choice lasts until the page closes */ }
    apply();
  }, true);
  apply();
  new MutationObserver(show).observe(document.body, { childList: true, subtree: true, characterData: true });
}
"""


def page_js() -> str:
    """The script the page runs once it loads (`launch(js=...)`)."""
    import json

    alts = json.dumps({photo.file: photo.alt for photo in example_photos()})
    names = NAMES_JS_TEMPLATE.replace("__EXAMPLES__", alts).strip()
    keyboard = KEYBOARD_JS_TEMPLATE.replace("__SHORTCUTS__", shortcuts_js_table()).strip()
    language = (
        PAGE_LANGUAGE_JS_TEMPLATE.replace("__PAGE_TEXTS__", page_texts_json())
        .replace("__KEY__", json.dumps(COOKIE))
        .strip()
    )
    parts = [
        language,
        keyboard,
        RADIO_GROUPS_JS.strip(),
        READ_ALOUD_JS.strip(),
        DOWNLOAD_JS.strip(),
        SLICE_PICK_JS.strip(),
        names,
    ]
    return "() => { " + " ".join(f"({part})();" for part in parts) + " }"
