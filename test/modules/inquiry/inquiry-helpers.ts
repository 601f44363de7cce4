/**
 * Helpers shared by the inquiry test files: a catalog with inquiry fields of every kind, and small wrappers
 * that create inquiries and clients through the API.
 */
import { expect } from 'vitest';
import type { CatalogFile } from '../../../src/modules/catalog/catalog-import.ts';
import type { TestApp } from '../../setup/build-test-app.ts';
import { newBusiness, testCatalog, type TestBusiness } from '../../setup/factories.ts';
import { apiClient } from '../../setup/api-client.ts';
export { prevDay, relative } from '../../setup/helpers.ts';

/** {@link testCatalog} plus inquiry fields (category I) of every data type. */
export function inquiryCatalog(): CatalogFile {
  const base = testCatalog();
  return {
    ...base,
    fields: [
      ...(base.fields ?? []),
      {
        key: 'iChannel',
        name: 'Inquiry channel',
        category: 'I',
        dataType: 'SL',
        options: [
          { id: 'web', title: 'Web' },
          { id: 'phone', title: 'Phone' },
        ],
      },
      {
        key: 'iTags',
        name: 'Inquiry tags',
        category: 'I',
        dataType: 'ML',
        options: [
          { id: 'a', title: 'A' },
          { id: 'b', title: 'B' },
        ],
      },
      { key: 'iOwner', name: 'Inquiry owner', category: 'I', dataType: 'M', members: ['kim'] },
      { key: 'iLaunch', name: 'Launch', category: 'I', dataType: 'D' },
      { key: 'iUrgent', name: 'Urgent', category: 'I', dataType: 'B' },
      { key: 'iNote', name: 'Inquiry note', category: 'I', dataType: 'T' },
    ],
  };
}

/** A business with {@link inquiryCatalog}. */
export function newInquiryBusiness(t: TestApp, options: { timezone?: string } = {}): Promise<TestBusiness> {
  return newBusiness(t, { ...options, catalog: inquiryCatalog() });
}

/** Creates an inquiry through the API (asserting 201) and returns the create response. */
export async function createInquiry(
  t: TestApp,
  b: TestBusiness,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await apiClient(t.app).call(b, { method: 'POST', url: '/v1/inquiry', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Creates a client through the API and returns its id. */
export async function createClient(
  t: TestApp,
  b: TestBusiness,
  body: Record<string, unknown> = { companyName: 'Acme Corp.' },
): Promise<number> {
  const res = await apiClient(t.app).call(b, { method: 'POST', url: '/v1/client', body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** A member as every response shows it. */
export function memberOf(b: TestBusiness, key: 'kim' | 'lee' | 'park') {
  const data = {
    kim: { nickname: 'Kim', email: 'kim@example.com', isActive: true, grade: 'owner' },
    lee: { nickname: 'Lee', email: 'lee@example.com', isActive: true, grade: 'staff' },
    park: { nickname: null, email: 'park@sample.org', isActive: false, grade: 'staff' },
  }[key];
  return {
    id: b.ids.members[key]!,
    nickname: data.nickname,
    email: data.email,
    isActive: data.isActive,
    grade: { id: b.ids.grades[data.grade]!, title: data.grade === 'owner' ? 'Owner' : 'Staff' },
  };
}

/** Keys every inquiry shape starts with. */
export const SUMMARY_KEYS = [
  'id',
  'uniqueId',
  'created',
  'status',
  'client',
  'contract',
  'name',
  'estimate',
  'inquiryDate',
];
/** Keys of the create shape (spec: "The create response carries: id, …, inquiryDate, inChargeSet"). */
export const CREATE_KEYS = [...SUMMARY_KEYS, 'inChargeSet'];
/** Keys of a list item: the same as the create shape (decisions §7: the create shape plus inChargeSet). */
export const LIST_KEYS = [...SUMMARY_KEYS, 'inChargeSet'];
/** Keys of the full shape. */
export const FULL_KEYS = [
  ...SUMMARY_KEYS,
  'content',
  'funnel',
  'workSet',
  'inChargeSet',
  'fieldSet',
  'fileLinkSet',
  'fileSet',
  'isHidden',
  'updated',
];
