// A small stand-in for the browser's document, enough for the player's DOM building (elements, attributes, text,
// children, listeners, style), installed as globalThis.document for the tests that build controls or SVG.
class FakeElement {
  constructor(tag, ns = null) {
    this.tagName = tag.toUpperCase();
    this.namespaceURI = ns;
    this.attributes = {};
    this.children = [];
    this.parentNode = null;
    this.style = {};
    this.listeners = {};
    this.text = "";
  }

  setAttribute(name, value) { this.attributes[name] = String(value); }
  getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; }
  appendChild(child) { child.parentNode = this; this.children.push(child); return child; }
  addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
  dispatch(kind, event = {}) { for (const fn of this.listeners[kind] || []) fn({ target: this, ...event }); }
  click() { this.dispatch("click"); }
  get firstChild() { return this.children[0] || null; }
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  set textContent(value) { this.text = String(value); this.children = []; }
  get title() { return this.getAttribute("title"); }
  set title(value) { this.setAttribute("title", value); }
  set selected(value) { if (value) this.setAttribute("selected", ""); }
  get value() { return this.getAttribute("value"); }
  set value(v) { this.setAttribute("value", v); }
  get dataset() {
    const el = this;
    return new Proxy({}, { get: (_, key) => el.getAttribute(`data-${String(key).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`) ?? undefined });
  }

  // every element below this one (depth first) that `test` accepts
  findAll(test) {
    const out = [];
    const walk = (node) => { for (const c of node.children) { if (test(c)) out.push(c); walk(c); } };
    walk(this);
    return out;
  }

  byTestId(id) { return this.findAll((e) => e.getAttribute("data-testid") === id)[0] || null; }
}

export function installFakeDocument() {
  const doc = {
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (ns, tag) => new FakeElement(tag, ns),
  };
  globalThis.document = doc;
  return doc;
}
