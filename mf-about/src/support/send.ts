import { callApi } from '@collectif/shared/call';
import { SUPPORT_ADDRESS } from '@collectif/shared/addresses';

/*
 * The page's two writes (docs/support.md): a donation's intent or a membership's form, each answered
 * with the HelloAsso page the visitor goes to. Sent as every write of the site's own client
 * (`@collectif/shared/call`, with the XSRF header: docs/api.md, « XSRF »). The site's refusal is said
 * in its own French words.
 */

/** The longest address of a HelloAsso page the page follows. */
const URL_MAX = 2048;

/** The HelloAsso page to go to, or the French sentence saying why there is none. */
export async function askRedirect(
  path: '/support/don' | '/support/adhesion',
  body: Record<string, unknown>,
): Promise<{ redirectUrl: string } | { error: string }> {
  const answer = await callApi('POST', path, body);
  if (!answer.ok) return { error: answer.message };
  // An answer is input: only an https address, or a path of the site (the demo's payment page), as
  // the answer's schema says (`supportRedirectAnswer`).
  const target = (answer.data as { redirectUrl?: unknown } | null)?.redirectUrl;
  if (typeof target !== 'string' || target.length > URL_MAX || !SUPPORT_ADDRESS.test(target)) {
    return { error: 'Le site a répondu sans page de paiement : réessayez dans un instant.' };
  }
  return { redirectUrl: target };
}
