/**
 * The hostile corpus: text a visitor may type into any field of a public form, which the tests
 * send where the public's words go (a proposal's fields, the editor that shows them, the e-mails
 * that carry them) and then look for as plain text. Markup, template and SQL injections, a
 * `javascript:` link, entities and an encoded header break, and characters outside Latin-1.
 */
export const HOSTILE_TEXTS: readonly string[] = [
  '<script>alert("x")</script>',
  '"><img src=x onerror=alert(1)>',
  '{{constructor.constructor("alert(1)")()}}',
  "'; DROP TABLE propositions; --",
  '${process.exit(1)}',
  '<a href="javascript:alert(1)">écoutez</a>',
  '&lt;b&gt;gras&lt;/b&gt; %0d%0aBcc: x@example.net',
  '🎵 « émission » — ％ ∞ 𝕏',
];
