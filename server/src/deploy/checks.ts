import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import * as v from 'valibot';
import { pageTable, readPageDeclarations, type PageRef, type PartName, type RemoteName } from '@collectif/shared';
import { DOCUMENT_ASSETS, readShellAssets } from '../site/render/shell-assets';
import { PAGES_FILE } from '../site/page-routes';

/**
 * What a part's new version must hold before it goes live (docs/deploy.md, « The checks »): its
 * build's record (`part.json`), its manifest and remote entry, its pages (a remote's), and a
 * contract the live shell meets. Each refusal says, in French, what is wrong and what to do.
 */

/** What a part's build writes beside its files (shared/build/webpack.mjs, docs/contract.md). */
export interface PartInfo {
  name: PartName;
  /** The shell: the contract version it provides (`2.4.0`); another part: the range it needs (`^2.4.0`). */
  contract: string;
  builtAt: string;
  commit: string | null;
}

/** The build's record of a part. */
export const PART_INFO = 'part.json';

const partInfoSchema = v.object({
  name: v.string(),
  contract: v.string(),
  builtAt: v.string(),
  commit: v.nullable(v.string()),
});

/** A check that failed: the reason, and what the team does about it. */
export class DeployRefused extends Error {
  constructor(
    message: string,
    readonly advice: string,
  ) {
    super(message);
  }
}

const REBUILD = 'reconstruisez la partie (npm run deploy sans --no-build) et déployez-la de nouveau';

function readJson(dir: string, file: string): unknown {
  const path = join(dir, file);
  if (!existsSync(path)) throw new DeployRefused(`${file} manque`, REBUILD);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new DeployRefused(`${file} illisible : ${error instanceof Error ? error.message : String(error)}`, REBUILD);
  }
}

/** A part's build record in a folder; null when it has none (a build from before the record). */
export function readPartInfo(dir: string): PartInfo | null {
  if (!existsSync(join(dir, PART_INFO))) return null;
  const parsed = v.safeParse(partInfoSchema, readJson(dir, PART_INFO));
  return parsed.success ? (parsed.output as PartInfo) : null;
}

/** The contract's major.minor a range starts at (`^2.4.0` → `2.4`). */
const shortVersion = (version: string): string => {
  const parsed = semver.coerce(version);
  return parsed === null ? version : `${String(parsed.major)}.${String(parsed.minor)}`;
};

/**
 * The files of a part's version in `dir`: its record, its manifest, its remote entry and, for a
 * remote, its pages. The pages a remote declares, to try it with.
 */
export function checkFiles(part: PartName, dir: string): { info: PartInfo; pages: PageRef[] } {
  const raw = v.safeParse(partInfoSchema, readJson(dir, PART_INFO));
  if (!raw.success) throw new DeployRefused(`${PART_INFO} incomplet (name, contract, builtAt, commit)`, REBUILD);
  const info = raw.output as PartInfo;
  if (info.name !== part) {
    throw new DeployRefused(
      `cette archive est la partie « ${info.name} », pas « ${part} »`,
      `déployez-la sous son nom : npm run deploy -- ${info.name}`,
    );
  }
  const valid = part === 'shell' ? semver.valid(info.contract) !== null : semver.validRange(info.contract) !== null;
  if (!valid) throw new DeployRefused(`contrat « ${info.contract} » illisible dans ${PART_INFO}`, REBUILD);

  const manifest = readJson(dir, 'mf-manifest.json') as {
    name?: unknown;
    metaData?: { remoteEntry?: { name?: unknown } };
  };
  // The federation name of a part's container (docs/parts.md).
  const container = `collectif_${part}`;
  if (manifest.name !== container) throw new DeployRefused(`mf-manifest.json ne nomme pas « ${container} »`, REBUILD);
  if (part === 'shell') {
    checkShellAssets(dir);
    return { info, pages: [] };
  }
  const entry = manifest.metaData?.remoteEntry?.name;
  if (typeof entry !== 'string' || !existsSync(join(dir, entry))) {
    throw new DeployRefused(`le point d'entrée du module distant (${String(entry)}) manque`, REBUILD);
  }
  return { info, pages: checkPages(part, dir) };
}

/**
 * A remote's pages (`pages.json`), checked as the server reads them when serving
 * (`readPageDeclarations`): every remote's, the player's included, since the server reads every
 * remote's file. A part that has pages must have the file; for the player, which has none, a missing
 * file declares none, as it does when serving.
 */
function checkPages(part: RemoteName, dir: string): PageRef[] {
  if (part === 'player' && !existsSync(join(dir, PAGES_FILE))) return [];
  try {
    return readPageDeclarations(readJson(dir, PAGES_FILE), part);
  } catch (error) {
    if (error instanceof DeployRefused) throw error;
    throw new DeployRefused(
      `${PAGES_FILE} refusé : ${error instanceof Error ? error.message : String(error)}`,
      REBUILD,
    );
  }
}

/**
 * The pages a kept version declares, as the server would read them; none when its file is missing
 * or refused (the server would give that remote no pages).
 */
export function pagesOf(part: RemoteName, dir: string): PageRef[] {
  try {
    return readPageDeclarations(JSON.parse(readFileSync(join(dir, PAGES_FILE), 'utf8')), part);
  } catch {
    return [];
  }
}

/**
 * Whether a remote's pages may have their addresses (docs/parts.md, « Addresses »): refused when one
 * of them, or of their former paths, is another part's, as the page table gives the addresses
 * (`pageTable`): the player has none, the server's addresses are nobody's and the editor's are
 * mf-admin's, and an address another part's live version holds (`held`: the other parts' pages as
 * served) stays with it. Every address refused is named, with its owner.
 */
export function checkAddresses(part: RemoteName, pages: readonly PageRef[], held: readonly PageRef[]): void {
  const others = held.filter((page) => page.remote !== part);
  const declared: Partial<Record<RemoteName, PageRef[]>> = {};
  for (const page of others) (declared[page.remote] ??= []).push(page);
  declared[part] = [...pages];
  const reasons = new Set<string>();
  pageTable(declared, {
    owners: others,
    refused: (page, reason) => {
      if (page.remote === part) reasons.add(reason);
    },
  });
  if (reasons.size === 0) return;
  const listed = [...reasons];
  const more = listed.length > ADDRESSES_NAMED ? ` (et ${String(listed.length - ADDRESSES_NAMED)} autre(s))` : '';
  throw new DeployRefused(
    `${PAGES_FILE} refusé : ${listed.slice(0, ADDRESSES_NAMED).join(' ; ')}${more}`,
    "retirez ces adresses de vos pages (la route de chaque module, ses anciennes adresses comprises) ou choisissez-en d'autres, puis déployez de nouveau ; l'adresse d'une autre partie ne se libère que quand celle-ci la retire",
  );
}

/** How many refused addresses a refusal names. */
const ADDRESSES_NAMED = 5;

/**
 * The shell's list of its files (`document.json`): each address a clean path of the version's own
 * folder, whose file, when there, does not lead out of it (`readShellAssets`). The server reads the
 * shell's sheets from disk to write them into every page: an address that climbs out of the folder
 * would put any file the server can read into every page. The first one refused is named.
 */
function checkShellAssets(dir: string): void {
  const refused: string[] = [];
  try {
    readShellAssets(readJson(dir, DOCUMENT_ASSETS), {
      dir,
      warn: (message) => refused.push(message),
    });
  } catch (error) {
    if (error instanceof DeployRefused) throw error;
    throw new DeployRefused(error instanceof Error ? error.message : String(error), REBUILD);
  }
  const [first] = refused;
  if (first !== undefined) {
    throw new DeployRefused(
      `${first}${refused.length > 1 ? ` (et ${String(refused.length - 1)} autre(s))` : ''}`,
      'chaque adresse de document.json doit être un fichier du dossier du shell, sans « .. » ni caractère encodé : reconstruisez le shell (npm run deploy sans --no-build) et déployez-le de nouveau',
    );
  }
}

/**
 * Whether a version's contract fits what is live (docs/contract.md): a remote's range must be met
 * by the live shell's version; a shell's version must meet every live remote's range.
 */
export function checkContract(info: PartInfo, live: Partial<Record<PartName, PartInfo | null>>): void {
  if (info.name !== 'shell') {
    const shell = live.shell;
    if (shell === null || shell === undefined) {
      throw new DeployRefused(
        'le shell en ligne ne dit pas quel contrat il fournit (construit avant les versions du contrat)',
        "déployez d'abord le shell",
      );
    }
    if (!semver.satisfies(shell.contract, info.contract)) {
      throw new DeployRefused(
        `construit pour le contrat ${shortVersion(info.contract)}, le shell en ligne fournit ${shortVersion(shell.contract)}`,
        semver.gtr(shell.contract, info.contract)
          ? `reconstruisez ${info.name} avec le contrat du shell en ligne, puis déployez-le`
          : "déployez d'abord le shell",
      );
    }
    return;
  }
  for (const [name, remote] of Object.entries(live)) {
    if (name === 'shell' || remote === null) continue;
    if (!semver.satisfies(info.contract, remote.contract)) {
      throw new DeployRefused(
        `ce shell fournit le contrat ${shortVersion(info.contract)}, « ${name} » en ligne est construit pour ${remote.contract}`,
        `déployez d'abord une version de « ${name} » qui accepte le contrat ${shortVersion(info.contract)}`,
      );
    }
  }
}
