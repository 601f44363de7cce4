/**
 * Helpers of the todo tests: an app whose clock the test moves, inquiries to attach todos to, and the
 * shapes' key lists.
 */
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../../setup/build-test-app.ts';
import type { TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';

/** Keys of the short shape (list items, create response), in order. */
export const SHORT_KEYS = [
  'id',
  'inquiry',
  'inCharge',
  'type',
  'dueDate',
  'dueTime',
  'action',
  'isComplete',
  'completedAt',
  'dDay',
  'created',
];
/** Keys of the full shape (retrieve, update), in order; `updated` per docs/api.md#events. */
export const FULL_KEYS = [
  'id',
  'inquiry',
  'inCharge',
  'completedInCharge',
  'type',
  'dueDate',
  'dueTime',
  'action',
  'actionHistory',
  'isComplete',
  'completedAt',
  'dDay',
  'created',
  'updated',
];

/** A test app with a movable clock: `clock.now` is what the server takes for "now". */
export interface ClockedApp extends TestApp {
  clock: { now: Date };
}

/** Builds the app with a clock the test controls (starts at the real time). */
export async function buildClockedApp(): Promise<ClockedApp> {
  const clock = { now: new Date() };
  const t = await buildTestApp({}, { clock: () => clock.now });
  return Object.assign(t, { clock });
}

/** Creates an inquiry through the API; returns `{id, uniqueId, name}` as a todo nests it. */
export async function newInquiry(
  t: TestApp,
  b: TestBusiness,
  name = 'Website renewal',
): Promise<{ id: number; uniqueId: string | null; name: string }> {
  const res = await apiClient(t.app).call(b, { method: 'POST', url: '/v1/inquiry', body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, uniqueId: res.body.uniqueId, name: res.body.name };
}

/** Creates a todo through the API (201 expected); returns the create response. */
export async function newTodo(
  t: TestApp,
  b: TestBusiness,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await apiClient(t.app).call(b, { method: 'POST', url: '/v1/todo', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A member of the test catalog as responses show it. */
export function memberOf(b: TestBusiness, key: 'kim' | 'lee' | 'park') {
  const data = {
    kim: {
      nickname: 'Kim',
      email: 'kim@example.com',
      isActive: true,
      grade: { id: b.ids.grades.owner, title: 'Owner' },
    },
    lee: {
      nickname: 'Lee',
      email: 'lee@example.com',
      isActive: true,
      grade: { id: b.ids.grades.staff, title: 'Staff' },
    },
    park: {
      nickname: null,
      email: 'park@sample.org',
      isActive: false,
      grade: { id: b.ids.grades.staff, title: 'Staff' },
    },
  }[key];
  return { id: b.ids.members[key], ...data };
}
