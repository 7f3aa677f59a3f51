"""The whole ask flow walked by keyboard in the real page (issue 33): every key counted per step, the focus
after each step, and every live-region text and focus move recorded (what a screen reader hears).

Used by tests/test_ui_keyboard_flow.py (asserts the counts and the focus) and by
scripts/measure_keyboard_flow.py (prints the table for a running app). A step reaches its control by Tab
or Shift+Tab, whichever way is shorter in the page's current tab order (as a user who knows the page
would), then presses what a keyboard user presses there; `shortcuts=True` uses the page's documented
Alt+Shift shortcuts where one exists. Typed text is not counted (a mouse user types it too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

EXAMPLE = "Three coins"
FOLLOW_UP = "Is it silver?"

# Records what a screen reader would hear: each change of a live region's text (aria-live, role status,
# alert or log) and each focus move, in order, with the time since the page loaded.
RECORDER_JS = """
(() => {
  window.__heard = [];
  const liveOf = (node) => {
    const el = node && (node.nodeType === 1 ? node : node.parentElement);
    const region = el && el.closest('[aria-live], [role=status], [role=alert], [role=log]');
    return region && region.getAttribute('aria-live') !== 'off' && !region.closest('[aria-hidden=true]')
      ? region : null;
  };
  const last = new Map();
  const note = (region) => {
    if (!region || region.getAttribute('aria-busy') === 'true') return;
    const text = (region.innerText || region.textContent || '').trim().replace(/\\s+/g, ' ');
    const key = region.id || region.className || region.tagName;
    if (!text || last.get(region) === text) return;
    last.set(region, text);
    window.__heard.push({ t: Math.round(performance.now()), kind: 'live', region: String(key), text });
  };
  const start = () => {
    new MutationObserver((changes) => {
      const regions = new Set();
      changes.forEach((c) => {
        regions.add(liveOf(c.target));
        if (c.type === 'attributes' && c.attributeName === 'aria-busy') regions.add(liveOf(c.target));
      });
      regions.forEach(note);
    }).observe(document.body, {
      childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['aria-busy'],
    });
    document.addEventListener('focusin', (e) => {
      const el = e.target;
      const name = el.getAttribute('aria-label') || el.labels?.[0]?.innerText || el.innerText
        || el.value || '';
      window.__heard.push({
        t: Math.round(performance.now()), kind: 'focus', region: el.tagName.toLowerCase(),
        text: String(name).trim().replace(/\\s+/g, ' ').slice(0, 120),
      });
    });
  };
  if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
})();
"""

# The page's tab order as a keyboard user meets it: focusable, visible, enabled elements in document order,
# one stop per radio group (its checked radio, else its first). Used only to choose Tab or Shift+Tab; the
# keys are then really pressed and the focus checked.
TAB_ORDER_JS = """
() => {
  const candidates = document.querySelectorAll(
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=true]');
  const seen = new Set();
  const out = [];
  for (const el of candidates) {
    if (el.disabled || el.tabIndex < 0 || el.type === 'hidden') continue;
    if (el.closest('[inert]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none' || !el.getClientRects().length) continue;
    if (el.type === 'radio' && el.name) {
      if (seen.has(el.name)) continue;
      const group = [...document.querySelectorAll(`input[type=radio][name="${el.name}"]`)];
      seen.add(el.name);
      out.push(group.find((r) => r.checked) || group[0]);
      continue;
    }
    out.push(el);
  }
  window.__tabOrder = out;
  return out.length;
}
"""

FOCUS_JS = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { where: 'page body', name: '', role: '' };
  const owner = el.closest('[id^="wh-"]');
  const name = el.getAttribute('aria-label') || el.labels?.[0]?.innerText
    || (el.tagName === 'TEXTAREA' ? '' : el.innerText) || '';
  return {
    where: owner ? '#' + owner.id : el.tagName.toLowerCase(),
    name: String(name).trim().replace(/\\s+/g, ' ').slice(0, 80),
    role: el.getAttribute('role') || el.tagName.toLowerCase() + (el.type ? '[' + el.type + ']' : ''),
  };
}
"""

# The page is settled: no event in flight (Gradio marks pending outputs), nothing busy.
SETTLED_JS = """
() => document.querySelectorAll('.pending, .generating').length === 0
  && !document.querySelector('#wh-chat[data-wh-busy="true"]')
  && [...document.querySelectorAll('[data-testid="status-tracker"]')]
       .every(t => t.classList.contains('hide') || getComputedStyle(t).opacity === '0')
"""


@dataclass
class Step:
    name: str
    clicks: int  # what a mouse user does: clicks plus the keys a mouse user also presses (Enter to ask)
    keys: list[str] = field(default_factory=list)
    focus: dict[str, str] = field(default_factory=dict)
    heard: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Walk:
    page: Any
    shortcuts: bool = False
    steps: list[Step] = field(default_factory=list)
    after_step: Callable[[Step], None] | None = None  # e.g. an axe scan of each state
    timeout_ms: int = 180_000  # a reply of the tiny model on a busy 2-core machine

    # ------------------------------------------------------------ keys

    def press(self, step: Step, key: str) -> None:
        self.page.keyboard.press(key)
        step.keys.append(key)

    def focused(self, predicate: str) -> bool:
        return bool(
            self.page.evaluate(f"() => {{ const el = document.activeElement; return !!({predicate}); }}")
        )

    def reach(self, step: Step, predicate: str, limit: int = 80) -> None:
        """Tab or Shift+Tab (the shorter way) until the focused element satisfies `predicate` (JS, `el`)."""
        if self.focused(predicate):
            return
        self.page.evaluate(TAB_ORDER_JS)
        here, there, count = self.page.evaluate(
            f"""() => {{
              const order = window.__tabOrder;
              const here = order.indexOf(document.activeElement);
              const there = order.findIndex((el) => !!({predicate}));
              return [here, there, order.length];
            }}"""
        )
        key = "Tab"
        if there >= 0 and here >= 0 and (here - there) % count < (there - here) % count:
            key = "Shift+Tab"
        for _ in range(limit):
            self.press(step, key)
            if self.focused(predicate):
                return
        raise AssertionError(f"{step.name}: {key} never reached {predicate} in {limit} presses")

    def shortcut_or_reach(
        self, step: Step, shortcut: str | None, predicate: str, presses: bool = False
    ) -> None:
        """Focus the control (`predicate`) by Tab, or by its shortcut; a shortcut that `presses` it acts
        at once (the step then presses nothing more)."""
        if self.shortcuts and shortcut and not (not presses and self.focused(predicate)):
            self.press(step, shortcut)
            if presses:
                return
            self.page.wait_for_function(
                f"() => {{ const el = document.activeElement; return !!({predicate}); }}"
            )
            return
        self.reach(step, predicate)

    # ------------------------------------------------------------ the flow

    def settle(self, condition: str | None = None) -> None:
        if condition:
            self.page.wait_for_function(condition, timeout=self.timeout_ms)
        self.page.wait_for_timeout(300)
        self.page.wait_for_function(SETTLED_JS, timeout=self.timeout_ms)
        self.page.wait_for_timeout(700)  # what Gradio says a moment after an event (its sr-only status)

    def step(self, name: str, clicks: int, body: Callable[[Step], None]) -> Step:
        mark = self.page.evaluate("() => window.__heard.length")
        step = Step(name, clicks)
        body(step)
        step.focus = self.page.evaluate(FOCUS_JS)
        step.heard = self.page.evaluate(f"() => window.__heard.slice({mark})")
        self.steps.append(step)
        if self.after_step is not None:
            self.after_step(step)
        return step

    def bots(self) -> int:
        return int(self.page.evaluate("() => document.querySelectorAll('#wh-chat .message.bot').length"))

    def wait_reply(self, before: int) -> None:
        self.settle(
            f"() => document.querySelectorAll('#wh-chat .message.bot').length > {before}"
            " && !/…$/.test(document.querySelector('#wh-chat .message.bot:last-of-type')?.innerText || '')"
        )

    def run(self, example: str = EXAMPLE) -> list[Step]:
        page = self.page
        page.wait_for_selector("#wh-photo")
        self.settle("() => document.readyState === 'complete'")

        def open_example(step: Step) -> None:
            if page.locator(
                "a[data-wh-focus*='wh-examples']"
            ).count():  # the skip link, where the page has one
                self.reach(step, "el.matches('a[data-wh-focus*=\"wh-examples\"]')")
                self.press(step, "Enter")
                page.wait_for_function("() => !!document.activeElement?.closest('#wh-examples')")
            self.shortcut_or_reach(
                step, None, f"el.closest('#wh-examples') && el.innerText.includes('{example}')"
            )
            self.press(step, "Enter")
            self.settle("() => /Photo ready/.test(document.querySelector('#wh-status')?.innerText || '')")

        def ask(step: Step) -> None:
            before = self.bots()
            self.shortcut_or_reach(
                step, "Alt+Shift+Q", "el.closest('#wh-question') && el.tagName === 'TEXTAREA'"
            )
            self.press(step, "Enter")
            self.wait_reply(before)

        def candidates(step: Step) -> None:
            self.shortcut_or_reach(step, "Alt+Shift+C", "el.closest('#wh-options') && el.type === 'radio'")

        def choose(step: Step) -> None:
            before = self.bots()
            self.press(step, "ArrowDown")  # the second candidate (the arrow keys choose in a radio group)
            self.page.wait_for_function("() => !!document.querySelector('#wh-options input:checked')")
            self.reach(step, "el.id === 'wh-choose' || el.closest('#wh-choose')")
            self.press(step, "Enter")
            self.wait_reply(before)

        def undo(step: Step) -> None:
            self.shortcut_or_reach(step, "Alt+Shift+U", "el.closest('#wh-undo')", presses=True)
            if not self.shortcuts:
                self.press(step, "Enter")
            self.settle("() => /undone/i.test(document.querySelector('#wh-status')?.innerText || '')")

        def follow_up(step: Step) -> None:
            before = self.bots()
            self.shortcut_or_reach(
                step, "Alt+Shift+Q", "el.closest('#wh-question') && el.tagName === 'TEXTAREA'"
            )
            page.keyboard.press("ControlOrMeta+A")  # replacing the old question: typing, as for a mouse user
            page.keyboard.type(FOLLOW_UP)
            self.press(step, "Enter")
            self.wait_reply(before)

        def read_aloud(step: Step) -> None:
            self.shortcut_or_reach(step, None, "el.id === 'wh-read' || el.closest('#wh-read')")
            self.press(step, "Enter")
            self.settle("() => (document.querySelector('#wh-read-status')?.innerText || '').length > 0")

        def download(step: Step) -> None:
            with page.expect_download():
                self.shortcut_or_reach(
                    step, None, "el.id === 'wh-download-chat' || el.closest('#wh-download-chat')"
                )
                self.press(step, "Enter")
            self.settle()

        def start_over(step: Step) -> None:
            self.shortcut_or_reach(step, "Alt+Shift+N", "el.closest('#wh-start-over')", presses=True)
            if not self.shortcuts:
                self.press(step, "Enter")
            if page.locator("#wh-start-over-now").count():  # the page asks first: its dialog opens
                page.locator("#wh-confirm-start-over").wait_for(state="visible")
                self.reach(step, "el.closest('#wh-confirm-start-over')")
                self.press(step, "Enter")
            self.settle("() => /Started over/.test(document.querySelector('#wh-status')?.innerText || '')")

        self.step("open the example photo", 1, open_example)
        self.step("ask", 1, ask)
        self.step("reach the candidates", 0, candidates)
        self.step("choose one", 2, choose)
        self.step("undo the choice", 1, undo)
        self.step("follow-up question", 2, follow_up)
        self.step("read aloud", 1, read_aloud)
        self.step("download", 1, download)
        # A mouse user confirms too where the page asks first.
        self.step("start over", 2 if page.locator("#wh-start-over-now").count() else 1, start_over)
        return self.steps


def table(rows: dict[str, list[Step]]) -> str:
    """A markdown table: one column of key counts per walk (e.g. desktop, phone), and the mouse's clicks."""
    names = list(rows)
    first = rows[names[0]]
    lines = ["| step | " + " | ".join(names) + " | mouse |", "|---" * (len(names) + 2) + "|"]
    for i, step in enumerate(first):
        counts = " | ".join(str(len(rows[n][i].keys)) for n in names)
        lines.append(f"| {step.name} | {counts} | {step.clicks} |")
    totals = " | ".join(str(sum(len(s.keys) for s in rows[n])) for n in names)
    lines.append(f"| **total** | {totals} | {sum(s.clicks for s in first)} |")
    return "\n".join(lines)
