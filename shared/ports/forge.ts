// The forge's app-installation API: Berth acts as an installed app, signs a short JWT with the
// app's private key, trades it for an installation token, and lists or clones with that token.

/** The forge app Berth acts as (private key opened, never logged). */
export interface ForgeApp {
  /** The REST API's base URL (`https://api.forge.example`, or an enterprise `…/api/v3`). */
  readonly apiUrl: string;
  readonly appId: string;
  readonly installationId: string;
  /** PEM, PKCS#1 or PKCS#8. */
  readonly privateKey: string;
}

export interface ForgeRepository {
  readonly name: string;
  readonly owner: string;
  /** The https URL to clone it from. */
  readonly url: string;
}

/** Raised with the forge's own reason (refused key, unknown repository, unreachable API). */
export class ForgeError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'ForgeError';
  }
}

export interface Forge {
  /** A fresh installation token (it expires within the hour; get one per use). */
  installationToken(app: ForgeApp): Promise<string>;
  repositories(app: ForgeApp, token: string): Promise<ForgeRepository[]>;
  repository(app: ForgeApp, token: string, owner: string, name: string): Promise<ForgeRepository>;
  branches(app: ForgeApp, token: string, owner: string, name: string): Promise<string[]>;
}
