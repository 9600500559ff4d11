/** The bundle's entry URL when it is as new as every file it was built from, else undefined. */
export function freshBundleEntry(dirUrl: URL): string | undefined;
