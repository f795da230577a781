/** Debian's Chromium; CHROMIUM_PATH overrides it. No browser is ever downloaded. */
export declare function chromiumPath(): string;
export declare function hasChromium(): boolean;
export declare const chromiumArgs: string[];
/** The project's fontconfig file: the only fonts the tests' Chromium sees (docs/testing.md). */
export declare const FONTCONFIG_FILE: string;
/**
 * What the browser tests fix whatever the contributor's machine (docs/testing.md, « Hermetic
 * browser tests »): the fonts (the project's, from npm, never the system's), the processes' time
 * zone and locale. The pages' own zone and language are Playwright's `timezoneId` and `locale`.
 */
export declare const HERMETIC_ENV: {
    readonly FONTCONFIG_FILE: string;
    readonly TZ: "UTC";
    readonly LANG: "C.UTF-8";
    readonly LC_ALL: "C.UTF-8";
};
/** Applies HERMETIC_ENV to this process (and so to the browser and servers it starts). */
export declare function useHermeticEnv(): void;
