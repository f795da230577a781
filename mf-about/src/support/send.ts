import { XSRF_PATH, apiUrl, sendWithXsrf } from '@collectif/shared';

/*
 * The page's two writes (docs/support.md): a donation's intent or a membership's form, each answered
 * with the HelloAsso page the visitor goes to. With the XSRF header like every write of the site's
 * own client (docs/api.md, « XSRF »). The site's refusal is said in its own French words.
 */

const UNREACHABLE = 'Le site ne répond pas : vérifiez votre connexion, puis réessayez.';

/** The longest address of a HelloAsso page the page follows. */
const URL_MAX = 2048;

/** The HelloAsso page to go to, or the French sentence saying why there is none. */
export async function askRedirect(
  path: '/support/don' | '/support/adhesion',
  body: Record<string, unknown>,
): Promise<{ redirectUrl: string } | { error: string }> {
  let response: Response;
  try {
    response = await sendWithXsrf(
      new Request(apiUrl(path), {
        method: 'POST',
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      apiUrl(XSRF_PATH),
    );
  } catch {
    return { error: UNREACHABLE };
  }
  const data = (await response.json().catch(() => null)) as { redirectUrl?: unknown; message?: unknown } | null;
  if (!response.ok) {
    return {
      error:
        typeof data?.message === 'string' && data.message !== ''
          ? data.message
          : `Le site a refusé la demande (HTTP ${String(response.status)}) : réessayez dans un instant.`,
    };
  }
  // An answer is input: only an http(s) address, or a path of the site (the demo's payment page).
  const target = data?.redirectUrl;
  if (typeof target !== 'string' || target.length > URL_MAX || !/^(https?:\/\/|\/(?!\/))\S+$/.test(target)) {
    return { error: 'Le site a répondu sans page de paiement : réessayez dans un instant.' };
  }
  return { redirectUrl: target };
}
