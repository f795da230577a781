import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import type { Env } from '../config';

// Replaced by the radio data API (issue 3).
export type ApiConfig = Record<string, never>;

export function readApiConfig(_env: Env): ApiConfig {
  return {};
}

const api: FastifyPluginAsync<{ config: ApiConfig }> = async () => {};

export const apiPlugin = fp(api, { name: 'api' });
