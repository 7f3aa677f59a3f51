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
