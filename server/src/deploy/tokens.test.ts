import { ConfigError } from '../settings/kinds';
import { authorise } from './tokens';
import { parseDeployTokens } from '../settings/deploy-tokens';

// The teams' tokens (docs/deploy.md, « A team's tokens »): a token deploys its parts only.

const RADIO = 'radio-3f9c1e7a5b2d4c6e8f0a1b2c';
const LABEL = 'label-9a8b7c6d5e4f3a2b1c0d9e8f';

describe('DEPLOY_TOKENS', () => {
  const tokens = parseDeployTokens(`radio:${RADIO}, label:${LABEL},about:${LABEL}`);

  it('lets a team deploy its own parts, one token for several', () => {
    expect(authorise(tokens, RADIO, 'radio')).toBe('ok');
    expect(authorise(tokens, LABEL, 'label')).toBe('ok');
    expect(authorise(tokens, LABEL, 'about')).toBe('ok');
  });

  it("refuses another team's part (403) and a token that is none of them (401)", () => {
    expect(authorise(tokens, RADIO, 'label')).toBe('other-part');
    expect(authorise(tokens, LABEL, 'radio')).toBe('other-part');
    expect(authorise(tokens, `${RADIO}x`, 'radio')).toBe('unknown');
    expect(authorise(tokens, '', 'radio')).toBe('unknown');
    expect(authorise(tokens, RADIO.slice(0, -1), 'radio')).toBe('unknown');
  });

  it('keeps no token in memory as it was written', () => {
    expect(JSON.stringify([...tokens.keys()])).not.toContain(RADIO);
  });

  it.each([
    ['radio', /paire n° 1 : « partie:jeton » attendu/],
    [`radoi:${RADIO}`, /paire n° 1 : partie inconnue « radoi » \(shell, player, radio, label, about, admin\)/],
    [`radio:${RADIO},label:court`, /paire n° 2 : jeton de moins de 24 caractères/],
  ])('refuses « %s » in French, naming the pair, never the token', (text, message) => {
    expect(() => parseDeployTokens(text)).toThrow(ConfigError);
    expect(() => parseDeployTokens(text)).toThrow(message);
    try {
      parseDeployTokens(text);
    } catch (error) {
      expect(String(error)).not.toContain(RADIO);
      expect(String(error)).toMatch(/^Error: DEPLOY_TOKENS : /);
    }
  });
});
