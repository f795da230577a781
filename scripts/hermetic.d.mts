/** Applies HERMETIC_PROCESS_ENV to this process, and so to every process it starts. */
export function useHermeticProcessEnv(): void;
export namespace HERMETIC_PROCESS_ENV {
    let TZ: "UTC";
    let LANG: "C.UTF-8";
    let LC_ALL: "C.UTF-8";
}
