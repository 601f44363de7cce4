/**
 * The composition root (README.md#development; the floors: scripts/check-floors.mjs): every service whose
 * writes reach another module's records is built here, once, with the cascades it runs (docs/api.md#cascades).
 * This file is where a reader sees who reacts to what:
 *
 * - an inquiry's rename and delete reach its todos (`todo.updated`, `todo.deleted`);
 * - a contract's write reaches the inquiry it links or releases (`inquiry.updated`, the 1:1 link), and a change
 *   of its summary or its delete its projects and settlements (`project.updated`, `settlement.updated` /
 *   `settlement.deleted` with their notes);
 * - a client's summary change or delete reaches its inquiries, then its contracts (`inquiry.updated`,
 *   `contract.updated`).
 *
 * The other direction of the link — an inquiry write that changes the contract it links or the summary that
 * contract nests (`contract.updated`) — the inquiry service does through the contract module's functions,
 * which it imports (the inquiry module builds on the contract module). The services without cascades are
 * their modules (stateless functions) and are listed here too, so the application (app.ts), the demo
 * (demo/), the notification dispatcher (jobs/) and `bizapi import` take all of them from one place.
 */
import * as catalog from './modules/catalog/catalog.service.ts';
import { createClientService } from './modules/client/client.service.ts';
import { clientCascade as contractsOfClient, createContractService } from './modules/contract/contract.service.ts';
import * as estimate from './modules/estimate/estimate.service.ts';
import * as file from './modules/file/file.service.ts';
import {
  clientCascade as inquiriesOfClient,
  contractLink,
  createInquiryService,
} from './modules/inquiry/inquiry.service.ts';
import * as inquiryHistory from './modules/inquiry/inquiry-history.service.ts';
import * as note from './modules/note/note.service.ts';
import * as project from './modules/project/project.service.ts';
import * as settlement from './modules/settlement/settlement.service.ts';
import * as todo from './modules/todo/todo.service.ts';
import * as worker from './modules/worker/worker.service.ts';

/** Builds the services (no state of their own: the database handle and the caller come with each call). */
function createServices() {
  const inquiry = createInquiryService({ todos: todo.inquiryCascades });
  const contract = createContractService({
    inquiries: contractLink,
    projects: project.contractCascades,
    settlements: settlement.contractCascades,
  });
  const client = createClientService({ inquiries: inquiriesOfClient, contracts: contractsOfClient });
  return {
    catalog,
    client,
    contract,
    estimate,
    file,
    inquiry,
    inquiryHistory,
    note,
    project,
    settlement,
    todo,
    worker,
  };
}

/** The services, built once for the process. */
export const services = createServices();
