/**
 * Where the site sends a visitor to give or join (docs/support.md): an https address (HelloAsso's
 * checkout) or a path of the site itself (the demo's payment page), never `http:`, `javascript:` or
 * a protocol-relative `//host`. One rule for the server's answer schema and the page that follows it.
 */
export const SUPPORT_ADDRESS = /^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/;
