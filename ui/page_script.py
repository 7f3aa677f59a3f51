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

# Reading a reply aloud in the browser with the Web Speech API (speechSynthesis): no server, no download,
# the system's own voices, offline. window.whichoneRead.newest() reads the newest reply at the rate the
# page's "Reading speed" slider gives; stop() stops; a reply that arrives while "Read each reply aloud" is
# ticked is read by the ask events' FOCUS_REPLY_JS (ui/ask_tab.py). Where the browser has no voices (or no
# speechSynthesis), the status line under the buttons says so instead.
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
  const newestText = () => {
    const bots = document.querySelectorAll('#wh-chat .message.bot');
    return bots.length ? bots[bots.length - 1].innerText.trim() : '';
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
    utterance.onend = () => status('Finished reading.');
    synth.speak(utterance);
    status('Reading the reply aloud. Press Stop reading to stop.');
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


def page_js() -> str:
    """The script the page runs once it loads (`launch(js=...)`)."""
    import json

    from ui.example_photos import example_photos

    alts = json.dumps({photo.file: photo.alt for photo in example_photos()})
    names = NAMES_JS_TEMPLATE.replace("__EXAMPLES__", alts).strip()
    return f"() => {{ ({RADIO_GROUPS_JS.strip()})(); ({READ_ALOUD_JS.strip()})(); ({names})(); }}"
