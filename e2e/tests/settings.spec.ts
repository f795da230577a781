import { expect, gotoPage, test } from '../fixtures';

// The radio's settings at run time (docs/server.md): the server writes them into every page and the
// site uses those, not the values built into the bundles. Here the page is changed on its way to the
// browser as a server started with other CHAT_ROOM and TWITCH_CHANNEL would send it: the settings
// written in it, and the links it rendered with them.
test('the chat room and the Twitch channel come from the settings written in the page', async ({ page }) => {
  const radioAnswers: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/radio') radioAnswers.push(request.url());
  });
  await page.route(
    (url) => url.pathname === '/',
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text())
        .replace(
          /(<script type="application\/json" id="radio-config">)([^<]*)(<\/script>)/,
          (_all, open: string, json: string, close: string) => {
            const settings = JSON.parse(json) as Record<string, unknown>;
            return `${open}${JSON.stringify({ ...settings, chatRoom: 'salon-essai', twitchChannel: 'chaine_essai' })}${close}`;
          },
        )
        .replaceAll('twitch.tv/example_collectif', 'twitch.tv/chaine_essai');
      expect(html).toContain('salon-essai');
      await route.fulfill({ response, body: html });
    },
  );
  await gotoPage(page, '/');
  await expect(page.locator('#contenu').getByRole('link', { name: /Regarder sur Twitch/ })).toHaveAttribute(
    'href',
    'https://www.twitch.tv/chaine_essai',
  );
  await page.getByRole('button', { name: 'Stream : ouvrir le lecteur' }).click();
  await page.getByRole('button', { name: 'Ouvrir le chat' }).click();
  // The chat's host is blocked in tests: its fallback link shows the address the player would load.
  const open = page.getByRole('link', { name: /Ouvrir le chat dans un nouvel onglet/ });
  await expect(open).toHaveAttribute('href', /salon-essai/, { timeout: 15_000 });
  // The page carried them: the site did not ask the API.
  expect(radioAnswers).toEqual([]);
});
