/** The contract's enums: numbers in memory, names on McpPlugin.Server's wire (ReflectorNet's EnumJsonConverter). */
import { z } from 'zod';
import { numericEnum } from './reading.js';

export const STATUS_NAMES = ['Error', 'Success', 'Processing'] as const;
export const ERROR_KIND_NAMES = ['None', 'BadRequest', 'NotFound', 'Conflict', 'Timeout', 'Unavailable', 'Internal'] as const;
export const ROLE_NAMES = ['User', 'Assistant'] as const;

export const ResponseStatus = { Error: 0, Success: 1, Processing: 2 } as const;
export type ResponseStatus = (typeof ResponseStatus)[keyof typeof ResponseStatus];
export const responseStatusSchema = numericEnum(STATUS_NAMES).pipe(z.literal([0, 1, 2]));

export const ResponseErrorKind = { None: 0, BadRequest: 1, NotFound: 2, Conflict: 3, Timeout: 4, Unavailable: 5, Internal: 6 } as const;
export type ResponseErrorKind = (typeof ResponseErrorKind)[keyof typeof ResponseErrorKind];
export const errorKindSchema = numericEnum(ERROR_KIND_NAMES).pipe(z.literal([0, 1, 2, 3, 4, 5, 6]));

export const Role = { User: 0, Assistant: 1 } as const;
export type Role = (typeof Role)[keyof typeof Role];
export const roleSchema = numericEnum(ROLE_NAMES).pipe(z.literal([0, 1]));
