export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identify the server
         * @description The server’s name and version and where its docs and this document are (extension; no API key, not logged). OpenAPI tools probe it as a health check.
         */
        get: operations["root_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{business_id}/{object}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attached file (pre-signed URL)
         * @description Extension (the reference service hands out S3 URLs instead). The `file` URL of a `fileSet` item when the server stores files itself. No API key: the URL is the credential; it expires 3600 s (`BIZAPI_DOWNLOAD_URL_TTL`) after the start of the minute it was signed in, plus one minute, so that every read within a minute carries the same URL. Answers the bytes with the media type of the file's extension and `Content-Disposition: attachment`. Tampered or expired: 403; a deleted file: 404.
         */
        get: operations["files_retrieve"];
        /**
         * Upload the bytes of a file (pre-signed URL)
         * @description Extension (the reference service hands out S3 URLs instead). The `url` returned by `POST /v1/presigned` when the server stores files itself (`BIZAPI_STORAGE=local`, the default). No API key: the URL is the credential.
         *
         *     Send the raw file bytes as the body, with any `Content-Type`. Accepts exactly one successful upload, until the URL expires (60 s). Larger than 52428800 bytes: 413. Tampered, expired or already used URL: 403. Answers 200 with an `ETag` (the MD5 of the bytes), as S3 does.
         */
        put: operations["files_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Extension. 200 while the process serves HTTP. No key needed.
         */
        get: operations["healthz_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Extension. Metrics in the Prometheus text format: requests by route and status, latency histogram, API call log buffer, database pool, outbox backlog, process. When the server sets `BIZAPI_METRICS_TOKEN`, send `Authorization: Bearer <token>`; otherwise no credentials are needed.
         */
        get: operations["metrics_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Extension. 200 when the database answers and its schema is current; 503 otherwise, and as soon as a graceful shutdown begins. No key needed.
         */
        get: operations["readyz_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/client": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List clients
         * @description Clients, newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of company name, contact person, contact or e-mail. `created_start` / `created_end` are inclusive dates in the business time zone. `is_hidden`: true only hidden, false only visible, omitted all.
         */
        get: operations["client_list"];
        put?: never;
        /**
         * Create a client
         * @description Only `companyName` is required. Without `status` the business default client status is assigned. No notification is sent.
         */
        post: operations["client_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/client/{client_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a client */
        get: operations["client_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a client
         * @description Soft delete: the client disappears from lists and reads, and its id answers 404 from then on.
         */
        delete: operations["client_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a client
         * @description Partial update: only the properties sent change. `fieldSet` sets the fields it names and keeps the others; an empty value clears one. A status change records no history.
         */
        patch: operations["client_partial_update"];
        trace?: never;
    };
    "/v1/client/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List client statuses
         * @description Client statuses `{id, title}` in their configured order.
         */
        get: operations["client_status_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contracts
         * @description Contracts, newest first, in the list shape (no `vatType`, recurring fields or `fieldSet`). `search` (repeatable, all terms must match) is a case-insensitive substring of the title, the contract number or the client’s company name. `created_start` / `created_end` compare the creation date in the business time zone; `start_date_from` / `start_date_to` and `end_date_from` / `end_date_to` the contract dates; all inclusive. `is_hidden`: true only hidden, false only visible, omitted all. `status` and `category_id` are extensions.
         */
        get: operations["contract_list"];
        put?: never;
        /**
         * Create a contract
         * @description `title` (≤ 128), `amount` (integer ≥ 0) and `type` (`I`, `S`, `G`) are required. `status` is writable (extension; default `P`); `vatType` defaults to `E`. The recurring fields `settlementFrequency` (≥ 1), `settlementCycle` (`W`, `M`) and `settlementDay` are accepted only when `type` is `S`; the day is 0 (Sunday) … 6 (Saturday) on a weekly cycle and 1..30 on a monthly one (31 is not allowed). `inquiry` links an inquiry 1:1 (an inquiry already linked to another contract is refused); `client` and `categorySet` reference records of the business; `fieldSet` takes fields of kind `CO`. Answers the list shape.
         */
        post: operations["contract_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract/{contract_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a contract
         * @description The full shape, with `vatType`, the recurring fields, `fieldSet` and `isHidden` (extension).
         */
        get: operations["contract_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a contract
         * @description Deletes the contract for good, together with its settlements and notes; a linked inquiry is released, and projects linked to it are left without a contract.
         */
        delete: operations["contract_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a contract
         * @description Partial update: only the properties sent change. `categorySet` replaces the whole set; `fieldSet` sets the fields it names and keeps the others (an empty value clears one). Changing `inquiry` releases the previously linked inquiry; `null` unlinks it. The recurring fields `settlementFrequency` (≥ 1), `settlementCycle` (`W`, `M`) and `settlementDay` are accepted only when `type` is `S`; the day is 0 (Sunday) … 6 (Saturday) on a weekly cycle and 1..30 on a monthly one (31 is not allowed). Changing `type` away from `S` clears the recurring fields. `status` is writable (extension).
         */
        patch: operations["contract_partial_update"];
        trace?: never;
    };
    "/v1/contract/{contract_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the notes of a contract
         * @description Text notes on the contract, newest first by `created`. A contract that does not exist answers 404.
         */
        get: operations["contract_history_list"];
        put?: never;
        /**
         * Add a note to a contract
         * @description `content` (1..5000 characters) is required. `created` defaults to now (any offset is accepted; it is stored in UTC); `member` `{id}` names the member who wrote it.
         */
        post: operations["contract_history_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contract/{contract_id}/history/{history_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a note of a contract */
        get: operations["contract_history_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a note of a contract
         * @description Removes the note for good.
         */
        delete: operations["contract_history_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a note of a contract
         * @description Partial update of `content` and `created`; the member is not writable.
         */
        patch: operations["contract_history_partial_update"];
        trace?: never;
    };
    "/v1/contract/category": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contract categories
         * @description Contract categories `{id, title}`, newest first; `search` matches the title.
         */
        get: operations["contract_category_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimate/item": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List estimate items
         * @description Estimate item templates, newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of the title or the description. `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset.
         */
        get: operations["estimate_item_list"];
        put?: never;
        /**
         * Create an estimate item
         * @description `title` (1..256), `unitCost` (a decimal string, up to 28 integer digits and 2 decimals, negative for a discount) and `unit` (1..8) are required. `description` is null or 1..2048 characters; `classification` a classification `{id}` or null.
         */
        post: operations["estimate_item_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/estimate/item/{item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an estimate item */
        get: operations["estimate_item_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete an estimate item
         * @description Permanent delete: the item is removed, and its id answers 404 from then on.
         */
        delete: operations["estimate_item_destroy"];
        options?: never;
        head?: never;
        /**
         * Update an estimate item
         * @description Partial update: only the properties sent change. `description: null` and `classification: null` clear them.
         */
        patch: operations["estimate_item_partial_update"];
        trace?: never;
    };
    "/v1/estimate/item/classification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List estimate item classifications
         * @description Classifications `{id, title}` in their configured order (the catalog file's `estimateItemClassifications`). `search` (repeatable, all terms must match) is a case-insensitive substring of the title.
         */
        get: operations["estimate_item_classification_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Extension. Every create, change and delete of the business’s records, newest first, kept 30 days. `type` (repeatable) keeps any of the given types, or prefixes (`inquiry.*`); `created_start` / `created_end` are inclusive: a date in the business time zone or a date-time with an offset. With `after_sequence=N`: only the events whose `sequence` is greater than N, **oldest first** — store the last `sequence` processed and ask for the events after it to follow the feed without missing or reordering a committed change (polling by `created` or `updated` can miss a change that commits late).
         */
        get: operations["event_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event */
        get: operations["event_retrieve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream events
         * @description Extension. Server-Sent Events: the events after `after_sequence`, then each as it commits (docs/api.md#stream).
         */
        get: operations["event_stream_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/field": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List custom fields
         * @description Custom fields, newest first; `category` narrows to one record kind (I inquiry, C client, CO contract).
         */
        get: operations["field_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/folder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List folders
         * @description A plain array (not paged): the default folder first, then newest first. `search` matches the name.
         */
        get: operations["folder_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inquiries
         * @description Inquiries, newest first; each item is the create shape plus `inChargeSet`. `search` (repeatable, all terms must match) is a case-insensitive substring of the name, the inquiry number (`uniqueId`) or the client company name. `created_start` / `created_end` compare the creation date in the business time zone, `inquiry_date_start` / `inquiry_date_end` the inquiry date (both inclusive). `folder_id` is the folder of the status. `is_hidden`: true only hidden, false only visible, omitted all. Extension: the hidden flag `isHidden` on inquiries.
         */
        get: operations["inquiry_list"];
        put?: never;
        /**
         * Create an inquiry
         * @description Every property is optional. Defaults: `status` → the default status of the default folder, `name` → `의뢰 제목`, `inquiryDate` → today in the business time zone, `estimate` → 0. `uniqueId` is assigned (the next number of the business, never reused). Writes one status-history row, and notifies the members of `inChargeSet` who have notifications on. `fileSet` attaches files uploaded through `POST /v1/presigned` (at most 30). The response is the short create shape (no `inChargeSet`). Extension: `isHidden`.
         */
        post: operations["inquiry_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve an inquiry
         * @description The full shape, with `fileSet` download URLs. Extension: `isHidden`.
         */
        get: operations["inquiry_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete an inquiry
         * @description Soft delete: the inquiry disappears from lists, reads and nested summaries, and its id answers 404 from then on. Its histories are kept.
         */
        delete: operations["inquiry_destroy"];
        options?: never;
        head?: never;
        /**
         * Update an inquiry
         * @description Partial update: only the properties sent change. `workSet`, `inChargeSet` and `fileLinkSet` replace the whole set; `fieldSet` sets the fields it names and keeps the others (an empty value clears one); `funnel` sets the keys it names. A status change writes a status-history row (and a folder-history row when the folder changes) and notifies the responsible members; members added to `inChargeSet` are notified. `fileSet` appends files uploaded through `POST /v1/presigned` (at most 30 per inquiry, existing plus new); `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}` removes one. Extension: `isHidden`.
         */
        patch: operations["inquiry_partial_update"];
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/email_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the e-mails sent from an inquiry
         * @description E-mails sent from the inquiry, newest first. `status`: S sent, D draft, C scheduled, F failed. Read-only: the rows come from the mail integration.
         */
        get: operations["inquiry_email_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/email_reply_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the e-mail replies of an inquiry
         * @description Replies received to the inquiry e-mails, newest first. Read-only: the rows come from the mail integration.
         */
        get: operations["inquiry_email_reply_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/file/{file_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a file of an inquiry
         * @description Detaches one file (its id is `fileSet[].id` of the inquiry) and removes the stored object; its download URLs stop working. A file id of another inquiry answers 404. Writes `inquiry.updated` with `changedFields: ["fileSet"]`.
         */
        delete: operations["inquiry_file_destroy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/folder_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the folder history of an inquiry
         * @description One row per status change that moved the inquiry into another folder, newest first.
         */
        get: operations["inquiry_folder_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the notes of an inquiry (deprecated)
         * @deprecated
         * @description The inquiry's text notes, newest first by `created`. Extension: `updated_start` / `updated_end` select notes by their last change (inclusive). **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.
         */
        get: operations["inquiry_history_list"];
        put?: never;
        /**
         * Add a note to an inquiry (deprecated)
         * @deprecated
         * @description `content` (1 to 5000 characters) is required; `created` (default now) and `member {id}` are optional. The inquiry's responsible members with notifications on are notified. **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.
         */
        post: operations["inquiry_history_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/history/{history_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a note of an inquiry (deprecated)
         * @deprecated
         * @description A note of another inquiry answers 404. **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.
         */
        get: operations["inquiry_history_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a note of an inquiry (deprecated)
         * @deprecated
         * @description Removes the note for good. **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.
         */
        delete: operations["inquiry_history_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a note of an inquiry (deprecated)
         * @deprecated
         * @description `content` and `created` may change; the member may not. **Deprecated** (2026-03-03): an alias of `…/text_history`, kept for older clients; answers carry `Deprecation` and a `Link` to the successor.
         */
        patch: operations["inquiry_history_partial_update"];
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/status_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the status history of an inquiry
         * @description One row for the status given at create and one per status change, newest first. Each status carries its folder; `member` is null for changes made through the API.
         */
        get: operations["inquiry_status_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/submit_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the web-form submissions of an inquiry
         * @description Web-form submissions attached to the inquiry, newest first; `answers` is the submitted JSON. Read-only.
         */
        get: operations["inquiry_submit_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/text_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the text notes of an inquiry
         * @description The inquiry's text notes, newest first by `created`. Extension: `updated_start` / `updated_end` select notes by their last change (inclusive).
         */
        get: operations["inquiry_text_history_list"];
        put?: never;
        /**
         * Add a text note to an inquiry
         * @description `content` (1 to 5000 characters) is required; `created` (default now) and `member {id}` are optional. The inquiry's responsible members with notifications on are notified.
         */
        post: operations["inquiry_text_history_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/{inquiry_id}/text_history/{history_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a text note of an inquiry
         * @description A note of another inquiry answers 404.
         */
        get: operations["inquiry_text_history_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a text note of an inquiry
         * @description Removes the note for good.
         */
        delete: operations["inquiry_text_history_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a text note of an inquiry
         * @description `content` and `created` may change; the member may not.
         */
        patch: operations["inquiry_text_history_partial_update"];
        trace?: never;
    };
    "/v1/inquiry/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inquiry statuses
         * @description Inquiry statuses with their folder, in their configured order; `folder_id` narrows to one folder.
         */
        get: operations["inquiry_status_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inquiry/work": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inquiry tasks
         * @description The tasks (`workSet` entries) of every inquiry of the business, newest first, each with its inquiry.
         */
        get: operations["inquiry_work_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/log/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API calls
         * @description The calls made with this business’s keys in the last 14 days, newest first, whatever their status (a bad signature included). The OpenAPI document and the docs UI are never logged, nor are calls that did not authenticate. No header values are stored; bodies over 64 KiB are stored truncated. Calls appear within about a second (the log is written in batches).
         */
        get: operations["log_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/member": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members
         * @description Members of the business, newest first. `search` matches nickname or e-mail (repeat it to require several terms). Only on the FREE, TEAM and AGENCY plans; otherwise 403 `PLAN_PERMISSION_DENIED`.
         */
        get: operations["member_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List in-app notifications
         * @description Extension (not in the reference service). The in-app notifications of the business, newest first by the time of the event; `member_id` narrows to one member. Notifications are written by the notification dispatcher after the change that caused them committed: an inquiry created with `inChargeSet`, an inquiry status change, members added to `inChargeSet`, a text-history note. Only active members with notifications on receive them; each is also sent by e-mail and, when configured, push.
         */
        get: operations["notification_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/presigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a pre-signed upload URL
         * @description Step 1 of attaching a file to an inquiry. Send the file name with its extension; the answer is a `url` and a `path`.
         *
         *     1. `PUT` the file bytes to `url` (any `Content-Type`, for example the file's media type). The URL accepts exactly one upload and expires after 60 s (`BIZAPI_UPLOAD_URL_TTL`); files larger than 52428800 bytes (`BIZAPI_UPLOAD_MAX_BYTES`) are refused.
         *     2. Send `{"name": "<display name>", "file": "<path>"}` in `fileSet` when creating (`POST /v1/inquiry`) or updating (`PATCH /v1/inquiry/{inquiry_id}`, appends) an inquiry.
         *
         *     Allowed extensions (any letter case): pdf, doc, docx, xls, xlsx, ppt, pptx, hwp, jpg, jpeg, png, gif, zip. Call once per file.
         */
        post: operations["presigned_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/project": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List projects
         * @description Projects, newest first. `status` narrows to one status; `contract_id` to the projects of one contract; `is_hidden`: true only hidden, false only visible, omitted all. `start_date_start` / `start_date_end` and `end_date_start` / `end_date_end` are inclusive date ranges on `startDate` and `endDate` (a project without that date never matches). `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        get: operations["project_list"];
        put?: never;
        /**
         * Create a project
         * @description Only `title` is required. `contract` links a contract of the business `{id}` (answered as its summary). `status` defaults to `U` (scheduled), `isHidden` to false. `actualEndDate` cannot be set on create (it is ignored); set it with PATCH. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        post: operations["project_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/project/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a project
         * @description Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        get: operations["project_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a project
         * @description Soft delete: the project disappears from lists and reads, and its id answers 404 from then on. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        delete: operations["project_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a project
         * @description Partial update: only the properties sent change; `null` clears a nullable one (`contract: null` unlinks the contract). `actualEndDate` is settable only here. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        patch: operations["project_partial_update"];
        trace?: never;
    };
    "/v1/settlement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List settlements
         * @description Settlements, newest first, in the list shape. `search` (repeatable, all terms must match) is a case-insensitive substring of the title, the type alias or the contract’s title. `contract_id` keeps one contract’s settlements. `created_start` / `created_end` compare the creation date in the business time zone; `due_date_start` / `due_date_end` and `settled_date_start` / `settled_date_end` the settlement dates; all inclusive. `is_hidden`: true only hidden, false only visible, omitted all.
         */
        get: operations["settlement_list"];
        put?: never;
        /**
         * Create a settlement
         * @description `title` (1..128), `amount`, `additionalAmount`, `vat` (integers ≥ 0), `contract` and `type` are required. Refused with 400: the OUTSTANDING_PAYMENT type (`OUT`) and a type that does not allow multiple rounds when the contract already has a settlement of it (except `ADD`), on `type.id`; a contract without both a start and an end date, or a suspended contract (`T`), on `nonField`. `settlementRound` defaults to one more than the settlements of the type on the contract; `typeAlias` is the type’s title, followed by the round for multi-round types. The status starts at `C` (scheduled). Answers the list shape.
         */
        post: operations["settlement_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement/{settlement_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a settlement
         * @description The full shape, with the round, the tax invoice properties, the type, `inChargeSet` and `isHidden` (extension).
         */
        get: operations["settlement_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a settlement
         * @description Deletes the settlement for good, together with its status history and notes.
         */
        delete: operations["settlement_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a settlement
         * @description Partial update: only the properties sent change; `inChargeSet` replaces the whole set. `contract`, `type` and `settlementRound` cannot be changed. `status` is writable (extension): every change writes a row to the status history (`GET /v1/settlement/{settlement_id}/status_history`).
         */
        patch: operations["settlement_partial_update"];
        trace?: never;
    };
    "/v1/settlement/{settlement_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the notes of a settlement
         * @description Text notes on the settlement, newest first by `created`. A settlement that does not exist answers 404.
         */
        get: operations["settlement_history_list"];
        put?: never;
        /**
         * Add a note to a settlement
         * @description `content` (1..5000 characters) is required. `created` defaults to now (any offset is accepted; it is stored in UTC); `member` `{id}` names the member who wrote it.
         */
        post: operations["settlement_history_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement/{settlement_id}/history/{history_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a note of a settlement */
        get: operations["settlement_history_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a note of a settlement
         * @description Removes the note for good.
         */
        delete: operations["settlement_history_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a note of a settlement
         * @description Partial update of `content` and `created`; the member is not writable.
         */
        patch: operations["settlement_history_partial_update"];
        trace?: never;
    };
    "/v1/settlement/{settlement_id}/status_history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the status changes of a settlement
         * @description Extension: every change of the settlement’s `status`, newest first, as `{id, status, previousStatus, member, created}`; `member` is null for changes made through the API.
         */
        get: operations["settlement_status_history_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlement/type": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List settlement types
         * @description The settlement forms as a plain array (not paged), in catalog order.
         */
        get: operations["settlement_type_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/todo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List todos
         * @description Todos, newest first, in the short shape. `due_date_start` / `due_date_end` are an inclusive range on `dueDate`; `inquiry_id` narrows to one inquiry; `is_complete`: true only complete, false only open. `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset. Todos of a deleted inquiry are gone with it. `dDay` is `dueDate` minus today in the business time zone, in days (0 today, negative when overdue).
         */
        get: operations["todo_list"];
        put?: never;
        /**
         * Create a todo
         * @description Required: `inquiry` (a live inquiry of the business), `type` (M meeting, CA call, MS message, E other), `dueDate`, `action` (at most 2048 characters). Optional: `inCharge` (a member `{id}`), `dueTime` (`HH:MM[:SS]`), `actionHistory`. A new todo is open (`isComplete` false). The response is the short shape (no `completedInCharge`, no `actionHistory`).
         */
        post: operations["todo_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/todo/{todo_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a todo
         * @description The full shape, with `completedInCharge` and `actionHistory`. `dDay` is `dueDate` minus today in the business time zone, in days (0 today, negative when overdue).
         */
        get: operations["todo_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a todo
         * @description Permanent deletion: the todo is removed from the database.
         */
        delete: operations["todo_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a todo
         * @description Partial update; `inquiry` cannot be changed (it is ignored). `isComplete: true` marks the todo complete and sets `completedAt` to now unless it is given; `isComplete: false` reopens it and clears `completedAt` and `completedInCharge` (sending a non-null one with it is a 400). `completedAt` and `completedInCharge` can be set only on a complete todo.
         */
        patch: operations["todo_partial_update"];
        trace?: never;
    };
    "/v1/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Extension. The business’s webhook endpoints, newest first; secrets are never shown.
         */
        get: operations["webhook_list"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Extension. Events of the listed types (or every type, `["*"]`) are POSTed to `url`, signed as Standard Webhooks sign them. The answer carries the signing `secret`, shown only here and after a rotation. The URL must be `http` or `https` and name a public host. A business has at most 20 endpoints (`BIZAPI_WEBHOOK_MAX_ENDPOINTS`): one more is a 400 with `code: webhook_limit`.
         */
        post: operations["webhook_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a webhook endpoint
         * @description Extension. The endpoint without its secret.
         */
        get: operations["webhook_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Extension. The endpoint and its delivery history are deleted; nothing more is sent to it.
         */
        delete: operations["webhook_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Extension. Partial update: only the properties sent change; a new `url` is checked as on create. Setting `isActive` back to `true` re-enables an endpoint the server disabled after 5 days of failures.
         */
        patch: operations["webhook_partial_update"];
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/delivery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook endpoint
         * @description Extension. One item per event sent (or to be sent) to the endpoint, newest first, with the outcome of its last attempt; kept 30 days. `status` keeps one state.
         */
        get: operations["webhook_delivery_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/delivery/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a webhook delivery
         * @description Extension. Sends the delivery again as soon as possible: a succeeded or failed delivery becomes `pending`, due now, its attempt count kept. A pending one is made due now (unless it is being sent at this moment). Answers 202 with the delivery.
         */
        post: operations["webhook_delivery_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend the failed deliveries of a webhook endpoint since a time
         * @description Extension. Every delivery to this endpoint created at or after `since` that failed — ended `failed` after its retries, or waiting for a retry after a failed attempt — is queued again, due now (its attempt count kept), and sent in the background within the delivery caps. Deliveries that succeeded, older ones and other endpoints’ are not touched; events owed to a parked endpoint follow its resumption. `since` in the future or more than 30 days ago (the deliveries’ retention) is a 400; a disabled endpoint is a 400 with `code: webhook_inactive`. At most 5 a minute per endpoint: beyond, 429 with `Retry-After`. 202 `{count, since}` (docs/webhooks.md#recover).
         */
        post: operations["webhook_recover_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook endpoint the events after a sequence again
         * @description Extension. Queues, due now, one delivery to this endpoint of every event with a `sequence` above `after_sequence` that it would have received (its `eventTypes` and format, narrowed by `types`) — never an event committed before the endpoint was created, never another business’s. Each is the event as recorded, with its id as `webhook-id` and its `sequence`: receivers drop repeats as usual. At most `limit` (default and maximum 5000) events are read per call; `next_after_sequence` then says where the next call goes on. Sent in the background within the delivery caps. A disabled endpoint is a 400 with `code: webhook_inactive`. At most 5 a minute per endpoint: beyond, 429 with `Retry-After`. 202 `{count, next_after_sequence}` (docs/webhooks.md#replay).
         */
        post: operations["webhook_replay_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a parked webhook endpoint
         * @description Extension. Queues the events a parked endpoint (`isParked`) is owed, a chunk at a time as its queue drains, and clears its streak of unanswered attempts; it is parked again if the receiver still does not answer. 202 with the endpoint.
         */
        post: operations["webhook_resume"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret of a webhook endpoint
         * @description Extension. Answers a new secret, shown only here. For 24 hours every delivery carries two signatures, one with the new secret and one with the old, so the receiver can switch without losing a delivery.
         */
        post: operations["webhook_rotate_secret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to a webhook endpoint
         * @description Extension. Writes a `webhook.test` event (`data: {id, url}` of the endpoint) and queues its delivery to this endpoint alone, even an inactive one. Answers 202 with the pending delivery; follow it in the endpoint’s delivery list. At most 5 pings a minute per endpoint and 20 per business (deleting and re-creating an endpoint does not reset it): beyond, 429 with `Retry-After` and nothing is sent.
         */
        post: operations["webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/worker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workers
         * @description Live workers (deleted ones are excluded), newest first. `search` (repeatable, all terms must match) is a case-insensitive substring of the name; `position_id` narrows to one worker position; `is_hidden`: true only hidden, false only visible, omitted all. `updated_start` / `updated_end` (extension) select by the last change, inclusive: a date in the business time zone or a date-time with an offset. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        get: operations["worker_list"];
        put?: never;
        /**
         * Create a worker
         * @description Only `name` (1..32 characters) is required. `position` is a worker position `{id}`; `order` and `manMonthAmount` are integers ≥ 0 (default 0); `isHidden` defaults to false. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        post: operations["worker_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/worker/{worker_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a worker
         * @description Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        get: operations["worker_retrieve"];
        put?: never;
        post?: never;
        /**
         * Delete a worker
         * @description Soft delete: the worker disappears from lists and reads, and its id answers 404 from then on. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        delete: operations["worker_destroy"];
        options?: never;
        head?: never;
        /**
         * Update a worker
         * @description Partial update: only the properties sent change. A new `position.id` reassigns the position; `position: null` clears it. Only on the FREE and AGENCY plans: any other plan gets 403 `PLAN_PERMISSION_DENIED` before the request is read.
         */
        patch: operations["worker_partial_update"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ApiRoot: {
            /** @description Path of the docs UI. */
            docs: string;
            name: string;
            /** @description Path of this document. */
            openapi: string;
            /** @description The server’s package version. */
            version: string;
        };
        Client: {
            branchNumber: string | null;
            businessClass: string | null;
            businessRegistrationNumber: string | null;
            businessType: string | null;
            ceoName: string | null;
            companyAddress: string | null;
            companyDetailAddress: string | null;
            companyName: string;
            contact: string | null;
            content: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            email: string | null;
            fieldSet: components["schemas"]["FieldValue"][];
            id: number;
            inCharge: string | null;
            isHidden: boolean;
            position: string | null;
            status: components["schemas"]["IdTitle"] | null;
            taxInvoiceEmail: string | null;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        ClientListItem: {
            companyName: string;
            contact: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            email: string | null;
            id: number;
            inCharge: string | null;
            position: string | null;
            status: components["schemas"]["IdTitle"] | null;
        };
        ClientRequest: {
            branchNumber?: string | null;
            businessClass?: string | null;
            businessRegistrationNumber?: string | null;
            businessType?: string | null;
            ceoName?: string | null;
            companyAddress?: string | null;
            companyDetailAddress?: string | null;
            companyName: string;
            /** @description Phone number or other contact. */
            contact?: string | null;
            /** @description Memo. */
            content?: string | null;
            /** Format: email */
            email?: string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description Contact person name. */
            inCharge?: string | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            position?: string | null;
            /** @description Client status `{id}`; omitted on create → the default client status. */
            status?: {
                id: number;
            } | null;
            /** Format: email */
            taxInvoiceEmail?: string | null;
        };
        Contract: {
            amount: number;
            categorySet: components["schemas"]["IdTitle"][];
            client: components["schemas"]["ContractClient"] | null;
            contractNumber: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            fieldSet: components["schemas"]["FieldValue"][];
            id: number;
            inquiry: components["schemas"]["ContractInquiry"] | null;
            isHidden: boolean;
            /** @enum {string|null} */
            settlementCycle: "W" | "M" | null;
            settlementDay: number | null;
            settlementFrequency: number | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /** @enum {string} */
            status: "P" | "I" | "C" | "T";
            title: string;
            /** @enum {string} */
            type: "I" | "S" | "G";
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
            /** @enum {string} */
            vatType: "E" | "I" | "N";
        };
        ContractClient: {
            companyName: string;
            contact: string | null;
            email: string | null;
            id: number;
            inCharge: string | null;
            position: string | null;
            status: components["schemas"]["IdTitle"] | null;
        };
        ContractInquiry: {
            /** @description Decimal with exactly two decimals. */
            estimate: string;
            id: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            inquiryDate: string;
            name: string;
            status: {
                folder: {
                    id: number;
                    name: string;
                };
                id: number;
                title: string;
            } | null;
            uniqueId: string | null;
        };
        ContractListItem: {
            amount: number;
            categorySet: components["schemas"]["IdTitle"][];
            client: components["schemas"]["ContractClient"] | null;
            contractNumber: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            id: number;
            inquiry: components["schemas"]["ContractInquiry"] | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /** @enum {string} */
            status: "P" | "I" | "C" | "T";
            title: string;
            /** @enum {string} */
            type: "I" | "S" | "G";
        };
        ContractRequest: {
            amount: number;
            /** @description Contract categories `[{id}]`; replaces the whole set (null or [] clears it). */
            categorySet?: {
                id: number;
            }[] | null;
            /** @description The client `{id}`; null unlinks it. */
            client?: {
                id: number;
            } | null;
            contractNumber?: string | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate?: string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description The inquiry `{id}` this contract comes from (1:1); null unlinks it. */
            inquiry?: {
                id: number;
            } | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            /**
             * @description W week, M month; type S only.
             * @enum {string|null}
             */
            settlementCycle?: "W" | "M" | null;
            /** @description Type S only. Weekly: 0 Sunday … 6 Saturday. Monthly: day of month 1..30 (31 is not allowed). */
            settlementDay?: number | null;
            /** @description Every how many cycles a payment falls due; type S only. */
            settlementFrequency?: number | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate?: string | null;
            /**
             * @description P in preparation (default), I settlement in progress, C ended, T suspended. Writable here (extension).
             * @enum {string}
             */
            status?: "P" | "I" | "C" | "T";
            title: string;
            /**
             * @description I installment settlement, S recurring payment, G single settlement.
             * @enum {string}
             */
            type: "I" | "S" | "G";
            /**
             * @description E VAT excluded (default), I VAT included, N no VAT.
             * @enum {string}
             */
            vatType?: "E" | "I" | "N";
        };
        ContractSummary: {
            amount: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            id: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /** @enum {string} */
            status: "P" | "I" | "C" | "T";
            title: string;
            /** @enum {string} */
            type: "I" | "S" | "G";
        };
        /** @description Error: a message and a machine code (`not_found`, `parse_error`, `throttled`, `signature_invalid`, …; docs/api.md#errors). */
        ErrorDetail: {
            code?: string;
            detail: string;
            requestId?: string;
        };
        EstimateItem: {
            classification: components["schemas"]["IdTitle"] | null;
            /**
             * Format: date-time
             * @description When the item was created (extension: the reference does not show it).
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            description: string | null;
            id: number;
            /** @description URL of the item picture; `""` when it has none (the API cannot set one). */
            image: string;
            title: string;
            unit: string;
            /**
             * @description Decimal with exactly two decimals; negative for a discount line.
             * @example 4500000.00
             */
            unitCost: string;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        EstimateItemListItem: {
            classification: components["schemas"]["IdTitle"] | null;
            /**
             * Format: date-time
             * @description When the item was created (extension: the reference does not show it).
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            description: string | null;
            id: number;
            /** @description URL of the item picture; `""` when it has none (the API cannot set one). */
            image: string;
            title: string;
            unit: string;
            /**
             * @description Decimal with exactly two decimals; negative for a discount line.
             * @example 4500000.00
             */
            unitCost: string;
        };
        EstimateItemRequest: {
            /** @description Classification `{id}` (from `GET /v1/estimate/item/classification`); `null` clears it. Other keys are ignored. */
            classification?: {
                id: number;
            } | null;
            /** @description Free text, 1..2048 characters, or null. */
            description?: string | null;
            /** @description Item name, 1..256 characters. */
            title: string;
            /** @description Unit, 1..8 characters (`식`, `EA`, `M/M`). */
            unit: string;
            /**
             * @description Unit price: a decimal with up to 28 integer digits and 2 decimals (`"150000"`, `"-50000.50"`); negative for a discount line. A JSON number is accepted too.
             * @example 150000.00
             */
            unitCost: number | string;
        };
        Event: {
            /** @description The camelCase properties an update changed (`[]` for created and deleted). */
            changedFields: string[];
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /** @description The record’s full shape after the change, as `GET` on it answers; `{id}` for a delete; `{section, ids}` for `catalog.updated` (the catalog section that received entries and their new ids). */
            data: {
                [key: string]: unknown;
            };
            id: number;
            /** @description The record a note belongs to (`inquiry.text_history`, `contract.history`, `settlement.history` events); null for other events. */
            parent: {
                id: number;
                /** @enum {string} */
                type: "inquiry" | "contract" | "settlement";
            } | null;
            /** @description Strictly increasing per business in the order events become visible, given once the change has committed; follow the feed with `after_sequence`. */
            sequence: number;
            /**
             * @description `<resource>.<created|updated|deleted>`, `catalog.updated`, or `webhook.test`.
             * @enum {string}
             */
            type: "inquiry.created" | "inquiry.updated" | "inquiry.deleted" | "inquiry.text_history.created" | "inquiry.text_history.updated" | "inquiry.text_history.deleted" | "client.created" | "client.updated" | "client.deleted" | "contract.created" | "contract.updated" | "contract.deleted" | "contract.history.created" | "contract.history.updated" | "contract.history.deleted" | "settlement.created" | "settlement.updated" | "settlement.deleted" | "settlement.history.created" | "settlement.history.updated" | "settlement.history.deleted" | "project.created" | "project.updated" | "project.deleted" | "worker.created" | "worker.updated" | "worker.deleted" | "todo.created" | "todo.updated" | "todo.deleted" | "estimate.item.created" | "estimate.item.updated" | "estimate.item.deleted" | "catalog.updated" | "webhook.test";
        };
        Field: {
            /**
             * @description S short text, T long text, N number, D date, B boolean, SL single select, ML multi select, M member.
             * @enum {string}
             */
            dataType: "S" | "N" | "M" | "D" | "T" | "B" | "SL" | "ML";
            id: number;
            /** @description Members an M field may hold; a value carries the member id. */
            memberSet: components["schemas"]["Member"][];
            name: string;
            /** @description Options of SL / ML fields; a value carries the option `id`. */
            optionSet: components["schemas"]["FieldOption"][];
        };
        FieldOption: {
            id: string;
            title: string;
        };
        FieldValue: {
            field: components["schemas"]["Field"];
            value: string;
        };
        FieldValueRequest: {
            /**
             * @example {
             *       "id": 1
             *     }
             */
            field: {
                id: number;
            };
            value: string | number | boolean;
        };
        FileLink: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            link: string;
            text: string;
        };
        FileSetEntryRequest: {
            /** @description The `path` returned by `POST /v1/presigned`, after the upload. */
            file: string;
            name: string;
        };
        Folder: {
            id: number;
            isDefault: boolean;
            name: string;
        };
        Funnel: {
            gclid: string | null;
            guestUid: string | null;
            utmCampaign: string | null;
            utmContent: string | null;
            utmMedium: string | null;
            utmSource: string | null;
            utmTerm: string | null;
        };
        /** @description Marketing funnel. In a PATCH the keys sent change and the others are kept; `funnel: null` clears all seven. */
        FunnelRequest: {
            gclid?: string | null;
            guestUid?: string | null;
            utmCampaign?: string | null;
            utmContent?: string | null;
            utmMedium?: string | null;
            utmSource?: string | null;
            utmTerm?: string | null;
        };
        IdTitle: {
            id: number;
            title: string;
        };
        Inquiry: {
            client: components["schemas"]["InquiryClient"] | null;
            content: string | null;
            contract: components["schemas"]["InquiryContract"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * @description Decimal with exactly two decimals.
             * @example 1500000.00
             */
            estimate: string;
            fieldSet: components["schemas"]["FieldValue"][];
            fileLinkSet: components["schemas"]["FileLink"][];
            fileSet: components["schemas"]["InquiryFile"][];
            funnel: components["schemas"]["Funnel"];
            id: number;
            inChargeSet: components["schemas"]["Member"][];
            /**
             * Format: date
             * @example 2026-11-22
             */
            inquiryDate: string;
            isHidden: boolean;
            name: string;
            status: components["schemas"]["InquiryStatus"] | null;
            /** @description The business-visible inquiry number, assigned at create, never reused. */
            uniqueId: string | null;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
            workSet: {
                name: string;
            }[];
        };
        InquiryClient: {
            companyName: string;
            contact: string | null;
            email: string | null;
            id: number;
            inCharge: string | null;
            position: string | null;
            status: components["schemas"]["IdTitle"] | null;
        };
        InquiryContract: {
            amount: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            id: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /** @enum {string} */
            status: "P" | "I" | "C" | "T";
            title: string;
            /** @enum {string} */
            type: "I" | "S" | "G";
        };
        InquiryCreated: {
            client: components["schemas"]["InquiryClient"] | null;
            contract: components["schemas"]["InquiryContract"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * @description Decimal with exactly two decimals.
             * @example 1500000.00
             */
            estimate: string;
            id: number;
            inChargeSet: components["schemas"]["Member"][];
            /**
             * Format: date
             * @example 2026-11-22
             */
            inquiryDate: string;
            name: string;
            status: components["schemas"]["InquiryStatus"] | null;
            /** @description The business-visible inquiry number, assigned at create, never reused. */
            uniqueId: string | null;
        };
        InquiryEmailHistory: {
            ccSet: {
                ccEmail: string;
            }[];
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            fromEmail: string;
            id: number;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            sentAt: string | null;
            /**
             * @description S sent, D draft, C scheduled, F failed.
             * @enum {string}
             */
            status: "S" | "D" | "C" | "F";
            title: string;
            toSet: {
                toEmail: string;
            }[];
        };
        InquiryEmailReplyHistory: {
            ccSet: {
                ccEmail: string;
            }[];
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            fromEmail: string;
            id: number;
            isUnread: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            receivedAt: string | null;
            title: string;
            toSet: {
                toEmail: string;
            }[];
        };
        InquiryFile: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: uri
             * @description Pre-signed download URL (expires, by default after one hour).
             */
            file: string;
            /** @description The id for `DELETE /v1/inquiry/{inquiry_id}/file/{file_id}`. */
            id: number;
            name: string;
        };
        InquiryFolderHistory: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            folder: {
                id: number;
                name: string;
            };
            id: number;
            member: components["schemas"]["Member"] | null;
            previousFolder: {
                id: number;
                name: string;
            } | null;
        };
        InquiryListItem: {
            client: components["schemas"]["InquiryClient"] | null;
            contract: components["schemas"]["InquiryContract"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * @description Decimal with exactly two decimals.
             * @example 1500000.00
             */
            estimate: string;
            id: number;
            inChargeSet: components["schemas"]["Member"][];
            /**
             * Format: date
             * @example 2026-11-22
             */
            inquiryDate: string;
            name: string;
            status: components["schemas"]["InquiryStatus"] | null;
            /** @description The business-visible inquiry number, assigned at create, never reused. */
            uniqueId: string | null;
        };
        InquiryRequest: {
            /** @description Client `{id}`; null unlinks. */
            client?: {
                id: number;
            } | null;
            content?: string | null;
            /** @description Contract `{id}` (1:1): a contract already linked to another inquiry is refused; null unlinks. */
            contract?: {
                id: number;
            } | null;
            /**
             * @description Decimal, up to 28 integer digits and 2 decimals (`"1500000"`, `"-12.5"`); a JSON number is accepted too. null → 0.
             * @example 1500000.00
             */
            estimate?: number | string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description Links `{text, link}`. In a PATCH the list replaces the links; null changes nothing. */
            fileLinkSet?: {
                link: string;
                text: string;
            }[] | null;
            /**
             * @description Attachments `{name, file}` where `file` is the `path` of an object uploaded through `POST /v1/presigned`. Create sets them; update appends them (at most 30 per inquiry).
             * @example [
             *       {
             *         "name": "Proposal.pdf",
             *         "file": "42/9f86d081884c7d659a2feaa0c55ad015.pdf"
             *       }
             *     ]
             */
            fileSet?: components["schemas"]["FileSetEntryRequest"][] | null;
            funnel?: components["schemas"]["FunnelRequest"] | null;
            /** @description Responsible members `[{id}]`. In a PATCH the list replaces the set; null changes nothing. */
            inChargeSet?: {
                id: number;
            }[] | null;
            /**
             * Format: date
             * @description Omitted or null → today in the business's time zone.
             * @example 2026-11-22
             */
            inquiryDate?: string | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            /** @description Omitted or null → `의뢰 제목`. */
            name?: string | null;
            /** @description Status `{id}`; omitted or null → the default status of the default folder. */
            status?: {
                id: number;
            } | null;
            /** @description Tasks `{name}`. In a PATCH the list replaces the tasks; null changes nothing. */
            workSet?: {
                name: string;
            }[] | null;
        };
        InquiryStatus: {
            folder: {
                id: number;
                name: string;
            };
            id: number;
            title: string;
        };
        InquiryStatusHistory: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
            previousStatus: components["schemas"]["InquiryStatus"] | null;
            status: components["schemas"]["InquiryStatus"];
        };
        InquirySubmitHistory: {
            /** @description The answers as the form submitted them (any JSON value). */
            answers: unknown;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            form: {
                id: number;
                title: string;
            };
            id: number;
        };
        InquiryTextHistory: {
            content: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
        };
        InquiryTextHistoryDetail: {
            content: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        InquiryTextHistoryRequest: {
            content: string;
            /**
             * Format: date-time
             * @description When the note was written (any offset); default now.
             */
            created?: string;
            /** @description The member who wrote the note `{id}`. */
            member?: {
                id: number;
            } | null;
        };
        InquiryWork: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            inquiry: {
                id: number;
                name: string;
                uniqueId: string | null;
            };
            name: string;
        };
        /** @description The process serves HTTP. */
        Liveness: {
            /** @enum {string} */
            status: "ok";
        };
        Log: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            /** @description Present (`true`) only when the call was answered from a stored `Idempotency-Key` answer: nothing ran (docs/api.md#idempotent-retries). */
            idempotentReplayed?: boolean;
            /** @description Address of the caller (the proxy-forwarded one only when a trusted proxy is configured). */
            ipAddress: string;
            method: string;
            /** @description Path with the query string. */
            path: string;
            /** @description The `Referer` header, or an empty string. */
            referrer: string;
            /** @description The body as JSON (form bodies as objects), `null` when empty. A body over 64 KiB is replaced by `{"truncated": true, "size": <bytes>, "head": "<its first 64 KiB as text>"}`. */
            requestBody: unknown;
            /** @description The body as JSON (form bodies as objects), `null` when empty. A body over 64 KiB is replaced by `{"truncated": true, "size": <bytes>, "head": "<its first 64 KiB as text>"}`. */
            responseBody: unknown;
            /** @description HTTP status code, as a string. */
            statusCode: string;
        };
        Member: {
            email: string;
            grade: components["schemas"]["IdTitle"];
            id: number;
            isActive: boolean;
            nickname: string | null;
        };
        Note: {
            content: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
        };
        NoteDetail: {
            content: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        NoteRequest: {
            content: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created?: string;
            /** @description The member who wrote the note `{id}`; omitted or null: none. */
            member?: {
                id: number;
            } | null;
        };
        Notification: {
            /** @description The message text (also the e-mail body). */
            content: string;
            /**
             * Format: date-time
             * @description When the event happened.
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            /** @description The inquiry the event is about; `null` once it is deleted (a soft delete). */
            inquiry: {
                id: number;
            } | null;
            member: components["schemas"]["Member"];
            /** @description One-line summary (also the e-mail subject). */
            title: string;
            /**
             * @description `inquiry.created` (assigned on create), `inquiry.status_changed`, `inquiry.in_charge_added` (newly assigned), `inquiry.text_history_created` (a note was added).
             * @enum {string}
             */
            type: "inquiry.created" | "inquiry.status_changed" | "inquiry.in_charge_added" | "inquiry.text_history_created";
        };
        PaginatedClientListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["ClientListItem"][];
        };
        PaginatedContractListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["ContractListItem"][];
        };
        PaginatedEstimateItemListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["EstimateItemListItem"][];
        };
        PaginatedEventList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Event"][];
        };
        PaginatedFieldList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Field"][];
        };
        PaginatedIdTitleList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["IdTitle"][];
        };
        PaginatedInquiryEmailHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryEmailHistory"][];
        };
        PaginatedInquiryEmailReplyHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryEmailReplyHistory"][];
        };
        PaginatedInquiryFolderHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryFolderHistory"][];
        };
        PaginatedInquiryListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryListItem"][];
        };
        PaginatedInquiryStatusHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryStatusHistory"][];
        };
        PaginatedInquiryStatusList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryStatus"][];
        };
        PaginatedInquirySubmitHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquirySubmitHistory"][];
        };
        PaginatedInquiryTextHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryTextHistory"][];
        };
        PaginatedInquiryWorkList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["InquiryWork"][];
        };
        PaginatedLogList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Log"][];
        };
        PaginatedMemberList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Member"][];
        };
        PaginatedNoteList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Note"][];
        };
        PaginatedNotificationList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Notification"][];
        };
        PaginatedProjectListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["ProjectListItem"][];
        };
        PaginatedSettlementListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["SettlementListItem"][];
        };
        PaginatedSettlementStatusHistoryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["SettlementStatusHistory"][];
        };
        PaginatedTodoListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["TodoListItem"][];
        };
        PaginatedWebhookDeliveryList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["WebhookDelivery"][];
        };
        PaginatedWebhookList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["Webhook"][];
        };
        PaginatedWorkerListItemList: {
            /**
             * Format: uri
             * @description Link to the next page, or null on the last page.
             */
            next: string | null;
            /**
             * Format: uri
             * @description Link to the previous page, or null on the first page.
             */
            previous: string | null;
            results: components["schemas"]["WorkerListItem"][];
        };
        PatchedClientRequest: {
            branchNumber?: string | null;
            businessClass?: string | null;
            businessRegistrationNumber?: string | null;
            businessType?: string | null;
            ceoName?: string | null;
            companyAddress?: string | null;
            companyDetailAddress?: string | null;
            companyName?: string;
            /** @description Phone number or other contact. */
            contact?: string | null;
            /** @description Memo. */
            content?: string | null;
            /** Format: email */
            email?: string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description Contact person name. */
            inCharge?: string | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            position?: string | null;
            /** @description Client status `{id}`; omitted on create → the default client status. */
            status?: {
                id: number;
            } | null;
            /** Format: email */
            taxInvoiceEmail?: string | null;
        };
        PatchedContractRequest: {
            amount?: number;
            /** @description Contract categories `[{id}]`; replaces the whole set (null or [] clears it). */
            categorySet?: {
                id: number;
            }[] | null;
            /** @description The client `{id}`; null unlinks it. */
            client?: {
                id: number;
            } | null;
            contractNumber?: string | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate?: string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description The inquiry `{id}` this contract comes from (1:1); null unlinks it. */
            inquiry?: {
                id: number;
            } | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            /**
             * @description W week, M month; type S only.
             * @enum {string|null}
             */
            settlementCycle?: "W" | "M" | null;
            /** @description Type S only. Weekly: 0 Sunday … 6 Saturday. Monthly: day of month 1..30 (31 is not allowed). */
            settlementDay?: number | null;
            /** @description Every how many cycles a payment falls due; type S only. */
            settlementFrequency?: number | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate?: string | null;
            /**
             * @description P in preparation (default), I settlement in progress, C ended, T suspended. Writable here (extension).
             * @enum {string}
             */
            status?: "P" | "I" | "C" | "T";
            title?: string;
            /**
             * @description I installment settlement, S recurring payment, G single settlement.
             * @enum {string}
             */
            type?: "I" | "S" | "G";
            /**
             * @description E VAT excluded (default), I VAT included, N no VAT.
             * @enum {string}
             */
            vatType?: "E" | "I" | "N";
        };
        PatchedEstimateItemRequest: {
            /** @description Classification `{id}` (from `GET /v1/estimate/item/classification`); `null` clears it. Other keys are ignored. */
            classification?: {
                id: number;
            } | null;
            /** @description Free text, 1..2048 characters, or null. */
            description?: string | null;
            /** @description Item name, 1..256 characters. */
            title?: string;
            /** @description Unit, 1..8 characters (`식`, `EA`, `M/M`). */
            unit?: string;
            /**
             * @description Unit price: a decimal with up to 28 integer digits and 2 decimals (`"150000"`, `"-50000.50"`); negative for a discount line. A JSON number is accepted too.
             * @example 150000.00
             */
            unitCost?: number | string;
        };
        PatchedInquiryRequest: {
            /** @description Client `{id}`; null unlinks. */
            client?: {
                id: number;
            } | null;
            content?: string | null;
            /** @description Contract `{id}` (1:1): a contract already linked to another inquiry is refused; null unlinks. */
            contract?: {
                id: number;
            } | null;
            /**
             * @description Decimal, up to 28 integer digits and 2 decimals (`"1500000"`, `"-12.5"`); a JSON number is accepted too. null → 0.
             * @example 1500000.00
             */
            estimate?: number | string | null;
            /** @description Custom field values `{field: {id}, value}`; an empty value clears the field. */
            fieldSet?: components["schemas"]["FieldValueRequest"][] | null;
            /** @description Links `{text, link}`. In a PATCH the list replaces the links; null changes nothing. */
            fileLinkSet?: {
                link: string;
                text: string;
            }[] | null;
            /**
             * @description Attachments `{name, file}` where `file` is the `path` of an object uploaded through `POST /v1/presigned`. Create sets them; update appends them (at most 30 per inquiry).
             * @example [
             *       {
             *         "name": "Proposal.pdf",
             *         "file": "42/9f86d081884c7d659a2feaa0c55ad015.pdf"
             *       }
             *     ]
             */
            fileSet?: components["schemas"]["FileSetEntryRequest"][] | null;
            funnel?: components["schemas"]["FunnelRequest"] | null;
            /** @description Responsible members `[{id}]`. In a PATCH the list replaces the set; null changes nothing. */
            inChargeSet?: {
                id: number;
            }[] | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            inquiryDate?: string;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            name?: string;
            /**
             * @example {
             *       "id": 1
             *     }
             */
            status?: {
                id: number;
            };
            /** @description Tasks `{name}`. In a PATCH the list replaces the tasks; null changes nothing. */
            workSet?: {
                name: string;
            }[] | null;
        };
        PatchedInquiryTextHistoryRequest: {
            content?: string;
            /**
             * Format: date-time
             * @description When the note was written (any offset); default now.
             */
            created?: string;
        };
        PatchedNoteRequest: {
            content?: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created?: string;
        };
        PatchedProjectRequest: {
            /**
             * Format: date
             * @description Actual end; settable only here.
             */
            actualEndDate?: string | null;
            /** @description The contract `{id}` (a contract of the business); `null` unlinks. */
            contract?: {
                id: number;
            } | null;
            /**
             * Format: date
             * @description Planned end.
             */
            endDate?: string | null;
            /** @description Hidden flag; default false. */
            isHidden?: boolean;
            /**
             * Format: date
             * @description Planned start.
             */
            startDate?: string | null;
            /**
             * @description U scheduled, I in progress, A additional period, E ended. Default on create: U.
             * @enum {string}
             */
            status?: "U" | "I" | "A" | "E";
            /** @description Display colour, e.g. `#2f80ed`. */
            symbolColor?: string | null;
            title?: string;
        };
        PatchedSettlementRequest: {
            additionalAmount?: number;
            amount?: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate?: string | null;
            /** @description Responsible members `[{id}]`; replaces the whole set (null or [] clears it). */
            inChargeSet?: {
                id: number;
            }[] | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            isTaxInvoiceIssued?: boolean;
            isTaxInvoiceNeeded?: boolean;
            /**
             * Format: date
             * @example 2026-11-22
             */
            settledDate?: string | null;
            /**
             * @description C scheduled, D delayed, S completed, P suspended. Writable here (extension); every change is recorded in the status history.
             * @enum {string}
             */
            status?: "C" | "D" | "S" | "P";
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssuedDate?: string | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssueDueDate?: string | null;
            title?: string;
            vat?: number;
        };
        PatchedTodoRequest: {
            /** @description What to do (1..2048 characters). */
            action?: string;
            /** @description Notes on what was done. */
            actionHistory?: string | null;
            /**
             * Format: date-time
             * @description When it was completed (any offset; answered in UTC).
             */
            completedAt?: string | null;
            /** @description The member who completed it `{id}`; only on a complete todo. */
            completedInCharge?: {
                id: number;
            } | null;
            /** Format: date */
            dueDate?: string;
            /**
             * @description Time of day `HH:MM[:SS]`, in the business time zone.
             * @example 14:30:00
             */
            dueTime?: string | null;
            /** @description Responsible member `{id}`; `null` for none. */
            inCharge?: {
                id: number;
            } | null;
            /** @description Completion flag. */
            isComplete?: boolean;
            /**
             * @description M meeting, CA call, MS message, E other.
             * @enum {string}
             */
            type?: "M" | "CA" | "MS" | "E";
        };
        PatchedWebhookRequest: {
            /** @description A note for people; not sent. */
            description?: string | null;
            /** @description The event types to deliver (`<resource>.<created|updated|deleted>`), or `["*"]` alone for every type. */
            eventTypes?: ("inquiry.created" | "inquiry.updated" | "inquiry.deleted" | "inquiry.text_history.created" | "inquiry.text_history.updated" | "inquiry.text_history.deleted" | "client.created" | "client.updated" | "client.deleted" | "contract.created" | "contract.updated" | "contract.deleted" | "contract.history.created" | "contract.history.updated" | "contract.history.deleted" | "settlement.created" | "settlement.updated" | "settlement.deleted" | "settlement.history.created" | "settlement.history.updated" | "settlement.history.deleted" | "project.created" | "project.updated" | "project.deleted" | "worker.created" | "worker.updated" | "worker.deleted" | "todo.created" | "todo.updated" | "todo.deleted" | "estimate.item.created" | "estimate.item.updated" | "estimate.item.deleted" | "catalog.updated" | "*")[];
            /**
             * @description `standard`: the event object (`{id, type, created, changedFields, data}`). `pluuug`: the reference service’s envelope, for `inquiry.updated` events only (docs/webhooks.md#body-formats).
             * @enum {string}
             */
            format?: "standard" | "pluuug";
            /** @description Whether events are delivered. Turned off by the server after 5 days without a successful delivery; setting it back to `true` starts afresh. */
            isActive?: boolean;
            /** @description Where events are POSTed: `http` or `https`, no user name or password. A host that is or resolves to a loopback, private, link-local, multicast or other non-public address is refused (unless the server sets `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true`). */
            url?: string;
        };
        PatchedWorkerRequest: {
            /** @description Hidden flag; default false. */
            isHidden?: boolean;
            /** @description Amount per man-month, an integer from 0 to 2^53 − 1; default 0. */
            manMonthAmount?: number;
            name?: string;
            /** @description Display order, an integer from 0 to 2147483647; default 0. */
            order?: number;
            /** @description Worker position `{id}` (a `worker_position` of the business); `null` clears it. Other keys are ignored. */
            position?: {
                id: number;
            } | null;
        };
        Presigned: {
            /** @description The object path; send it as `fileSet[].file` when creating or updating an inquiry. */
            path: string;
            /**
             * Format: uri
             * @description Pre-signed URL that accepts one `PUT` of the file bytes until it expires.
             */
            url: string;
        };
        PresignedRequest: {
            /** @description The file name with its extension, one of pdf, doc, docx, xls, xlsx, ppt, pptx, hwp, jpg, jpeg, png, gif, zip (any letter case). */
            name: string;
        };
        Project: {
            /**
             * Format: date
             * @example 2026-11-22
             */
            actualEndDate: string | null;
            contract: components["schemas"]["ContractSummary"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            id: number;
            isHidden: boolean;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /**
             * @description U scheduled, I in progress, A additional period, E ended.
             * @enum {string}
             */
            status: "U" | "I" | "A" | "E";
            symbolColor: string | null;
            title: string;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        ProjectListItem: {
            /**
             * Format: date
             * @example 2026-11-22
             */
            actualEndDate: string | null;
            contract: components["schemas"]["ContractSummary"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            endDate: string | null;
            id: number;
            isHidden: boolean;
            /**
             * Format: date
             * @example 2026-11-22
             */
            startDate: string | null;
            /**
             * @description U scheduled, I in progress, A additional period, E ended.
             * @enum {string}
             */
            status: "U" | "I" | "A" | "E";
            symbolColor: string | null;
            title: string;
        };
        ProjectRequest: {
            /** @description The contract `{id}` (a contract of the business); `null` unlinks. */
            contract?: {
                id: number;
            } | null;
            /**
             * Format: date
             * @description Planned end.
             */
            endDate?: string | null;
            /** @description Hidden flag; default false. */
            isHidden?: boolean;
            /**
             * Format: date
             * @description Planned start.
             */
            startDate?: string | null;
            /**
             * @description U scheduled, I in progress, A additional period, E ended. Default on create: U.
             * @enum {string}
             */
            status?: "U" | "I" | "A" | "E";
            /** @description Display colour, e.g. `#2f80ed`. */
            symbolColor?: string | null;
            title: string;
        };
        /** @description Ready to serve. */
        Readiness: {
            checks: {
                /**
                 * @description Whether the database answers a query.
                 * @enum {string}
                 */
                database: "ok" | "unreachable";
                /**
                 * @description `mismatch`: the configured master key cannot decrypt the stored API-key secrets; `unknown`: not checked (the database did not answer, or migrations are pending).
                 * @enum {string}
                 */
                masterKey: "ok" | "mismatch" | "unknown";
                /**
                 * @description `pending`: the database lacks migrations this build needs; `unknown`: the database did not answer.
                 * @enum {string}
                 */
                migrations: "ok" | "pending" | "unknown";
                /**
                 * @description `draining`: a graceful shutdown has begun.
                 * @enum {string}
                 */
                process: "ok" | "draining";
            };
            /** @enum {string} */
            status: "ready" | "unavailable";
        };
        Settlement: {
            additionalAmount: number;
            amount: number;
            contract: components["schemas"]["ContractSummary"];
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate: string | null;
            id: number;
            inChargeSet: components["schemas"]["Member"][];
            isHidden: boolean;
            isTaxInvoiceIssued: boolean;
            isTaxInvoiceNeeded: boolean;
            /**
             * Format: date
             * @example 2026-11-22
             */
            settledDate: string | null;
            settlementRound: number;
            /** @enum {string} */
            status: "C" | "D" | "S" | "P";
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssuedDate: string | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssueDueDate: string | null;
            title: string;
            type: components["schemas"]["SettlementType"];
            /** @description The type’s title, followed by the round for multi-round types. */
            typeAlias: string;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
            vat: number;
        };
        SettlementListItem: {
            additionalAmount: number;
            amount: number;
            contract: components["schemas"]["ContractSummary"];
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate: string | null;
            id: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            settledDate: string | null;
            /** @enum {string} */
            status: "C" | "D" | "S" | "P";
            title: string;
            /** @description The type’s title, followed by the round for multi-round types. */
            typeAlias: string;
            vat: number;
        };
        SettlementRequest: {
            additionalAmount: number;
            amount: number;
            /** @description The contract `{id}`. */
            contract: {
                id: number;
            };
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate?: string | null;
            /** @description Responsible members `[{id}]`; replaces the whole set (null or [] clears it). */
            inChargeSet?: {
                id: number;
            }[] | null;
            /** @description Hidden flag (extension). */
            isHidden?: boolean;
            isTaxInvoiceIssued?: boolean;
            isTaxInvoiceNeeded?: boolean;
            /**
             * Format: date
             * @example 2026-11-22
             */
            settledDate?: string | null;
            /** @description Round number; default: one more than the settlements of this type on the contract. */
            settlementRound?: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssuedDate?: string | null;
            /**
             * Format: date
             * @example 2026-11-22
             */
            taxInvoiceIssueDueDate?: string | null;
            title: string;
            /** @description The settlement type (form) `{id}`; OUTSTANDING_PAYMENT (`OUT`) cannot be used. */
            type: {
                id: number;
            };
            vat: number;
        };
        SettlementStatusHistory: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            member: components["schemas"]["Member"] | null;
            /** @enum {string|null} */
            previousStatus: "C" | "D" | "S" | "P" | null;
            /** @enum {string} */
            status: "C" | "D" | "S" | "P";
        };
        SettlementType: {
            allowsMultipleRounds: boolean;
            /** @enum {string} */
            baseType: "INI" | "INS" | "BAL" | "COM" | "SUB" | "SIN" | "ADD" | "OUT";
            /** @enum {string} */
            category: "I" | "S" | "E";
            id: number;
            title: string;
        };
        Todo: {
            action: string;
            actionHistory: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            completedAt: string | null;
            completedInCharge: components["schemas"]["Member"] | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /** @description `dueDate` minus today in the business time zone, in days: 0 today, negative when overdue. */
            dDay: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate: string;
            /** @description `HH:MM:SS` */
            dueTime: string | null;
            id: number;
            inCharge: components["schemas"]["Member"] | null;
            inquiry: components["schemas"]["TodoInquiry"];
            isComplete: boolean;
            /**
             * @description M meeting, CA call, MS message, E other.
             * @enum {string}
             */
            type: "M" | "CA" | "MS" | "E";
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        TodoInquiry: {
            id: number;
            name: string;
            uniqueId: string | null;
        };
        TodoListItem: {
            action: string;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            completedAt: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /** @description `dueDate` minus today in the business time zone, in days: 0 today, negative when overdue. */
            dDay: number;
            /**
             * Format: date
             * @example 2026-11-22
             */
            dueDate: string;
            /** @description `HH:MM:SS` */
            dueTime: string | null;
            id: number;
            inCharge: components["schemas"]["Member"] | null;
            inquiry: components["schemas"]["TodoInquiry"];
            isComplete: boolean;
            /**
             * @description M meeting, CA call, MS message, E other.
             * @enum {string}
             */
            type: "M" | "CA" | "MS" | "E";
        };
        TodoRequest: {
            /** @description What to do (1..2048 characters). */
            action: string;
            /** @description Notes on what was done. */
            actionHistory?: string | null;
            /**
             * Format: date
             * @description Due date `YYYY-MM-DD`.
             */
            dueDate: string;
            /**
             * @description Time of day `HH:MM[:SS]`, in the business time zone.
             * @example 14:30:00
             */
            dueTime?: string | null;
            /** @description Responsible member `{id}`; `null` for none. */
            inCharge?: {
                id: number;
            } | null;
            /** @description The inquiry `{id}` the todo belongs to: a live inquiry of the business. */
            inquiry: {
                id: number;
            };
            /**
             * @description M meeting, CA call, MS message, E other.
             * @enum {string}
             */
            type: "M" | "CA" | "MS" | "E";
        };
        /** @description Property → list of messages; references nest (`{"client": {"id": ["…"]}}`). */
        ValidationError: {
            nonField?: string[];
            requestId?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A URL that receives the business’s events by HTTP POST, signed as Standard Webhooks sign them. */
        Webhook: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            description: string | null;
            /** @description Event types delivered, or `["*"]` for every type. */
            eventTypes: string[];
            /** @enum {string} */
            format: "standard" | "pluuug";
            id: number;
            /** @description Whether events are delivered (false once the server disabled a failing endpoint). */
            isActive: boolean;
            /** @description Whether the endpoint is parked: its receiver stopped answering, so new events are owed, not queued (docs/webhooks.md#parking). */
            isParked: boolean;
            url: string;
        };
        /** @description A new endpoint, with its signing secret (shown only here). */
        WebhookCreated: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            description: string | null;
            /** @description Event types delivered, or `["*"]` for every type. */
            eventTypes: string[];
            /** @enum {string} */
            format: "standard" | "pluuug";
            id: number;
            /** @description Whether events are delivered (false once the server disabled a failing endpoint). */
            isActive: boolean;
            /** @description Whether the endpoint is parked: its receiver stopped answering, so new events are owed, not queued (docs/webhooks.md#parking). */
            isParked: boolean;
            /** @description The signing secret (`whsec_` + base64 of 24 random bytes): verify `webhook-signature` with it. Shown only in this answer; store it now. */
            secret: string;
            url: string;
        };
        WebhookDelivery: {
            /** @description Attempts made so far. */
            attempts: number;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            /** @description The event delivered (`GET /v1/event/{event_id}`); its id is the `webhook-id` header of every attempt. */
            event: {
                id: number;
                /** @description The event type (`webhook.test` for a test ping). */
                type: string;
            };
            id: number;
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            lastAttemptAt: string | null;
            /** @description Why the last attempt failed (timeout, connection refused, refused address, status); null after a success. */
            lastError: string | null;
            /** @description The HTTP status of the last attempt; null before the first or when no answer came. */
            lastStatusCode: number | null;
            /**
             * Format: date-time
             * @description When the next attempt is due; null once succeeded or failed.
             * @example 2026-11-22T05:31:56.123Z
             */
            nextAttemptAt: string | null;
            /**
             * @description `pending` (due at `nextAttemptAt`, or being sent), `succeeded` (a 2xx answer), `failed` (every retry failed).
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
        };
        WebhookRecovered: {
            /** @description Deliveries queued again, due now. */
            count: number;
            /**
             * Format: date-time
             * @description The `since` of the request, in UTC.
             * @example 2026-11-22T05:31:56.123Z
             */
            since: string;
        };
        WebhookRecoverRequest: {
            /**
             * Format: date-time
             * @description Resend the deliveries created at or after this time that failed (ended `failed`, or waiting for a retry after a failed attempt). Any offset; not in the future, and within the 30 days deliveries are kept.
             */
            since: string;
        };
        WebhookReplayed: {
            /** @description Events queued for the endpoint, due now. */
            count: number;
            /** @description When the replay stopped at `limit` events read: the `after_sequence` of the next call; `null` when every event was sent. */
            next_after_sequence: number | null;
        };
        WebhookReplayRequest: {
            /** @description Send the events with a greater `sequence` (0: from the endpoint’s creation) that the endpoint would have received. */
            after_sequence: number;
            /** @description Most events to read in this call (default and maximum 5000); continue from `next_after_sequence`. */
            limit?: number;
            /** @description Only these of the endpoint’s event types (`["*"]` alone: all of them, the default). */
            types?: ("inquiry.created" | "inquiry.updated" | "inquiry.deleted" | "inquiry.text_history.created" | "inquiry.text_history.updated" | "inquiry.text_history.deleted" | "client.created" | "client.updated" | "client.deleted" | "contract.created" | "contract.updated" | "contract.deleted" | "contract.history.created" | "contract.history.updated" | "contract.history.deleted" | "settlement.created" | "settlement.updated" | "settlement.deleted" | "settlement.history.created" | "settlement.history.updated" | "settlement.history.deleted" | "project.created" | "project.updated" | "project.deleted" | "worker.created" | "worker.updated" | "worker.deleted" | "todo.created" | "todo.updated" | "todo.deleted" | "estimate.item.created" | "estimate.item.updated" | "estimate.item.deleted" | "catalog.updated" | "*")[];
        };
        WebhookRequest: {
            /** @description A note for people; not sent. */
            description?: string | null;
            /** @description The event types to deliver (`<resource>.<created|updated|deleted>`), or `["*"]` alone for every type. */
            eventTypes: ("inquiry.created" | "inquiry.updated" | "inquiry.deleted" | "inquiry.text_history.created" | "inquiry.text_history.updated" | "inquiry.text_history.deleted" | "client.created" | "client.updated" | "client.deleted" | "contract.created" | "contract.updated" | "contract.deleted" | "contract.history.created" | "contract.history.updated" | "contract.history.deleted" | "settlement.created" | "settlement.updated" | "settlement.deleted" | "settlement.history.created" | "settlement.history.updated" | "settlement.history.deleted" | "project.created" | "project.updated" | "project.deleted" | "worker.created" | "worker.updated" | "worker.deleted" | "todo.created" | "todo.updated" | "todo.deleted" | "estimate.item.created" | "estimate.item.updated" | "estimate.item.deleted" | "catalog.updated" | "*")[];
            /**
             * @description `standard`: the event object (`{id, type, created, changedFields, data}`). `pluuug`: the reference service’s envelope, for `inquiry.updated` events only (docs/webhooks.md#body-formats).
             * @enum {string}
             */
            format?: "standard" | "pluuug";
            /** @description Whether events are delivered. Turned off by the server after 5 days without a successful delivery; setting it back to `true` starts afresh. */
            isActive?: boolean;
            /** @description Where events are POSTed: `http` or `https`, no user name or password. A host that is or resolves to a loopback, private, link-local, multicast or other non-public address is refused (unless the server sets `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true`). */
            url: string;
        };
        WebhookSecret: {
            /** @description The new signing secret, shown only here. The old one keeps signing beside it for 24 hours. */
            secret: string;
        };
        Worker: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            isHidden: boolean;
            manMonthAmount: number;
            name: string;
            order: number;
            position: components["schemas"]["WorkerPosition"] | null;
            /**
             * Format: date-time
             * @description Extension: when the record or one of its sets last changed.
             * @example 2026-11-22T05:31:56.123Z
             */
            updated: string;
        };
        WorkerListItem: {
            /**
             * Format: date-time
             * @example 2026-11-22T05:31:56.123Z
             */
            created: string;
            id: number;
            isHidden: boolean;
            manMonthAmount: number;
            name: string;
            order: number;
            position: components["schemas"]["WorkerPosition"] | null;
        };
        WorkerPosition: {
            id: number;
            symbolColor: string;
            title: string;
        };
        WorkerRequest: {
            /** @description Hidden flag; default false. */
            isHidden?: boolean;
            /** @description Amount per man-month, an integer from 0 to 2^53 − 1; default 0. */
            manMonthAmount?: number;
            name: string;
            /** @description Display order, an integer from 0 to 2147483647; default 0. */
            order?: number;
            /** @description Worker position `{id}` (a `worker_position` of the business); `null` clears it. Other keys are ignored. */
            position?: {
                id: number;
            } | null;
        };
    };
    responses: {
        /** @description Unknown id, an id of another business, a deleted record (`Not found.`), or a malformed cursor (`Invalid cursor`). */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Not found."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description The request body is larger than 1 MiB. */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Request body is too large (limit: 1048576 bytes)."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description Wrong `X-Signature`, or none while the server requires signatures (`signature_invalid`, `signature_required`); or the plan does not allow the operation (`PLAN_PERMISSION_DENIED`). */
        PermissionDenied: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "The X-Signature header does not match the request body: sign it with the secret key of the X-API-Key sent (on /docs: the secret key goes in the X-Signature box).",
                 *       "code": "signature_invalid"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description The API key made more requests this minute than the rate limit allows; `Retry-After` says when to retry. */
        Throttled: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Request was throttled. Expected available in 42 seconds."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description Missing, unknown or revoked `X-API-Key` (`code`: `not_authenticated` or `authentication_failed`). */
        Unauthenticated: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Authentication credentials were not provided.",
                 *       "code": "not_authenticated"
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description A body in another content type than JSON, urlencoded or multipart form. */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "detail": "Unsupported media type \"text/plain\" in request."
                 *     }
                 */
                "application/json": components["schemas"]["ErrorDetail"];
            };
        };
        /** @description Validation failed (property → messages), or the body is malformed JSON or form (`detail`). */
        ValidationError: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "companyName": [
                 *         "This field is required."
                 *       ],
                 *       "requestId": "8f14e45f-ceea-467f-a0e6-1b3c5d2e9f00"
                 *     }
                 */
                "application/json": components["schemas"]["ValidationError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests left in the current window and seconds until it resets (`limit=1000, remaining=999, reset=42`; IETF draft). */
        RateLimit: string;
        /** @description The rate-limit policy of the key (`1000;w=60`; IETF draft). */
        "RateLimit-Policy": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description The request id (a sane incoming `X-Request-Id` is echoed). */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    root_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `ApiRoot`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "name": "bizapi",
                     *       "version": "0.1.0",
                     *       "docs": "/docs",
                     *       "openapi": "/openapi.json"
                     *     }
                     */
                    "application/json": components["schemas"]["ApiRoot"];
                };
            };
        };
    };
    files_retrieve: {
        parameters: {
            query?: {
                /** @description Expiry of the URL, in Unix seconds. */
                expires?: string;
                /** @description File name offered in `Content-Disposition`. */
                name?: string;
                /** @description The URL’s signature (HMAC-SHA256, base64url). */
                signature?: string;
            };
            header?: never;
            path: {
                /** @description The business part of the object path. */
                business_id: string;
                /** @description The rest of the object path: 32 hex digits and the extension. */
                object: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file bytes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example %PDF-1.7 … */
                    "application/octet-stream": string;
                };
            };
            /** @description The URL is tampered with, expired, or (upload) already used. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (for example a deleted attachment). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    files_update: {
        parameters: {
            query?: {
                /** @description Expiry of the URL, in Unix seconds. */
                expires?: string;
                /** @description The URL’s signature (HMAC-SHA256, base64url). */
                signature?: string;
            };
            header?: never;
            path: {
                /** @description The business part of the object path. */
                business_id: string;
                /** @description The rest of the object path: 32 hex digits and the extension. */
                object: string;
            };
            cookie?: never;
        };
        /** @description The file bytes. */
        requestBody: {
            content: {
                /** @example %PDF-1.7 … */
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Stored. `ETag` holds the MD5 of the bytes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The URL is tampered with, expired, or (upload) already used. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description No such object (for example a deleted attachment). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The file is larger than 52428800 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    healthz_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process serves HTTP. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    metrics_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format 0.0.4. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP bizapi_http_requests_total HTTP responses by route and status.
                     *     # TYPE bizapi_http_requests_total counter
                     *     bizapi_http_requests_total{method="GET",route="/v1/client",status_code="200"} 42
                     */
                    "text/plain": string;
                };
            };
            /** @description The metrics token is set and the request did not send it. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    readyz_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": "ok",
                     *         "migrations": "ok",
                     *         "process": "ok",
                     *         "masterKey": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready: see `checks`. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": "ok",
                     *         "migrations": "ok",
                     *         "process": "ok",
                     *         "masterKey": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    client_list: {
        parameters: {
            query?: {
                /** @description YYYY-MM-DD, inclusive. */
                created_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                created_start?: string;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                status_id?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedClientListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/client?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 42,
                     *           "companyName": "Acme Corp.",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "status": {
                     *             "id": 1,
                     *             "title": "Lead"
                     *           },
                     *           "inCharge": "Jane Doe",
                     *           "position": "CTO",
                     *           "contact": "+82-2-555-0100",
                     *           "email": "jane@acme.example"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedClientListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    client_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "companyName": "Acme Corp.",
                 *       "inCharge": "Jane Doe",
                 *       "email": "jane@acme.example",
                 *       "status": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ClientRequest"];
                /**
                 * @example {
                 *       "companyName": "Acme Corp.",
                 *       "inCharge": "Jane Doe",
                 *       "email": "jane@acme.example",
                 *       "status": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["ClientRequest"];
                /**
                 * @example {
                 *       "companyName": "Acme Corp.",
                 *       "inCharge": "Jane Doe",
                 *       "email": "jane@acme.example",
                 *       "status": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["ClientRequest"];
            };
        };
        responses: {
            /** @description Created: `ClientListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 42,
                     *       "companyName": "Acme Corp.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "Lead"
                     *       },
                     *       "inCharge": "Jane Doe",
                     *       "position": "CTO",
                     *       "contact": "+82-2-555-0100",
                     *       "email": "jane@acme.example"
                     *     }
                     */
                    "application/json": components["schemas"]["ClientListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    client_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                client_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Client`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 42,
                     *       "companyName": "Acme Corp.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "Lead"
                     *       },
                     *       "inCharge": "Jane Doe",
                     *       "position": "CTO",
                     *       "contact": "+82-2-555-0100",
                     *       "email": "jane@acme.example",
                     *       "content": "Met at the trade fair.",
                     *       "businessRegistrationNumber": "123-45-67890",
                     *       "ceoName": "John Roe",
                     *       "companyAddress": "1 Main Street, Seoul",
                     *       "companyDetailAddress": "5th floor",
                     *       "businessType": "Service",
                     *       "businessClass": "Software",
                     *       "branchNumber": "0001",
                     *       "taxInvoiceEmail": "billing@acme.example",
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 2,
                     *             "name": "Channel",
                     *             "dataType": "SL",
                     *             "optionSet": [
                     *               {
                     *                 "id": "web",
                     *                 "title": "Web"
                     *               }
                     *             ],
                     *             "memberSet": []
                     *           },
                     *           "value": "web"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    client_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                client_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    client_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                client_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "contact": "+82-2-555-0100",
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 3
                 *           },
                 *           "value": "web"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PatchedClientRequest"];
                /**
                 * @example {
                 *       "contact": "+82-2-555-0100",
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 3
                 *           },
                 *           "value": "web"
                 *         }
                 *       ]
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedClientRequest"];
                /**
                 * @example {
                 *       "contact": "+82-2-555-0100",
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 3
                 *           },
                 *           "value": "web"
                 *         }
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedClientRequest"];
            };
        };
        responses: {
            /** @description OK: `Client`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 42,
                     *       "companyName": "Acme Corp.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "Lead"
                     *       },
                     *       "inCharge": "Jane Doe",
                     *       "position": "CTO",
                     *       "contact": "+82-2-555-0100",
                     *       "email": "jane@acme.example",
                     *       "content": "Met at the trade fair.",
                     *       "businessRegistrationNumber": "123-45-67890",
                     *       "ceoName": "John Roe",
                     *       "companyAddress": "1 Main Street, Seoul",
                     *       "companyDetailAddress": "5th floor",
                     *       "businessType": "Service",
                     *       "businessClass": "Software",
                     *       "branchNumber": "0001",
                     *       "taxInvoiceEmail": "billing@acme.example",
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 2,
                     *             "name": "Channel",
                     *             "dataType": "SL",
                     *             "optionSet": [
                     *               {
                     *                 "id": "web",
                     *                 "title": "Web"
                     *               }
                     *             ],
                     *             "memberSet": []
                     *           },
                     *           "value": "web"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Client"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    client_status_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedIdTitleList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         {
                     *           "id": 2,
                     *           "title": "Customer"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedIdTitleList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    contract_list: {
        parameters: {
            query?: {
                /** @description Only contracts in this category (extension). */
                category_id?: number;
                client_id?: number;
                /** @description YYYY-MM-DD, inclusive. */
                created_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                created_start?: string;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description YYYY-MM-DD, inclusive. */
                end_date_from?: string;
                /** @description YYYY-MM-DD, inclusive. */
                end_date_to?: string;
                inquiry_id?: number;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                /** @description YYYY-MM-DD, inclusive. */
                start_date_from?: string;
                /** @description YYYY-MM-DD, inclusive. */
                start_date_to?: string;
                /** @description Only contracts in this status (extension). */
                status?: "P" | "I" | "C" | "T";
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedContractListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/client?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 12,
                     *           "title": "Website renewal",
                     *           "amount": 12000000,
                     *           "type": "I",
                     *           "status": "P",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "contractNumber": "C-2026-001",
                     *           "startDate": "2026-12-01",
                     *           "endDate": "2027-03-31",
                     *           "inquiry": {
                     *             "id": 5,
                     *             "uniqueId": "INQ-0005",
                     *             "status": {
                     *               "id": 2,
                     *               "title": "Won",
                     *               "folder": {
                     *                 "id": 1,
                     *                 "name": "Sales"
                     *               }
                     *             },
                     *             "name": "Website renewal",
                     *             "estimate": "12000000.00",
                     *             "inquiryDate": "2026-11-02"
                     *           },
                     *           "client": {
                     *             "id": 42,
                     *             "status": {
                     *               "id": 1,
                     *               "title": "Lead"
                     *             },
                     *             "companyName": "Acme Corp.",
                     *             "inCharge": "Jane Doe",
                     *             "position": "CTO",
                     *             "contact": "+82-2-555-0100",
                     *             "email": "jane@acme.example"
                     *           },
                     *           "categorySet": [
                     *             {
                     *               "id": 1,
                     *               "title": "Web development"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedContractListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    contract_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Website renewal",
                 *       "amount": 12000000,
                 *       "type": "I",
                 *       "contractNumber": "C-2026-001",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-03-31",
                 *       "vatType": "E"
                 *     }
                 */
                "application/json": components["schemas"]["ContractRequest"];
                /**
                 * @example {
                 *       "title": "Website renewal",
                 *       "amount": 12000000,
                 *       "type": "I",
                 *       "contractNumber": "C-2026-001",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-03-31",
                 *       "vatType": "E"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["ContractRequest"];
                /**
                 * @example {
                 *       "title": "Website renewal",
                 *       "amount": 12000000,
                 *       "type": "I",
                 *       "contractNumber": "C-2026-001",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-03-31",
                 *       "vatType": "E"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["ContractRequest"];
            };
        };
        responses: {
            /** @description Created: `ContractListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "title": "Website renewal",
                     *       "amount": 12000000,
                     *       "type": "I",
                     *       "status": "P",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contractNumber": "C-2026-001",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-03-31",
                     *       "inquiry": {
                     *         "id": 5,
                     *         "uniqueId": "INQ-0005",
                     *         "status": {
                     *           "id": 2,
                     *           "title": "Won",
                     *           "folder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           }
                     *         },
                     *         "name": "Website renewal",
                     *         "estimate": "12000000.00",
                     *         "inquiryDate": "2026-11-02"
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "categorySet": [
                     *         {
                     *           "id": 1,
                     *           "title": "Web development"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ContractListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contract_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Contract`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "title": "Website renewal",
                     *       "amount": 12000000,
                     *       "type": "I",
                     *       "status": "P",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contractNumber": "C-2026-001",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-03-31",
                     *       "inquiry": {
                     *         "id": 5,
                     *         "uniqueId": "INQ-0005",
                     *         "status": {
                     *           "id": 2,
                     *           "title": "Won",
                     *           "folder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           }
                     *         },
                     *         "name": "Website renewal",
                     *         "estimate": "12000000.00",
                     *         "inquiryDate": "2026-11-02"
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "categorySet": [
                     *         {
                     *           "id": 1,
                     *           "title": "Web development"
                     *         }
                     *       ],
                     *       "vatType": "E",
                     *       "settlementFrequency": null,
                     *       "settlementCycle": null,
                     *       "settlementDay": null,
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 9,
                     *             "name": "Project code",
                     *             "dataType": "S",
                     *             "optionSet": [],
                     *             "memberSet": []
                     *           },
                     *           "value": "PRJ-77"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contract"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    contract_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                contract_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                contract_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "I",
                 *       "categorySet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 2
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 9
                 *           },
                 *           "value": "PO-1234"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PatchedContractRequest"];
                /**
                 * @example {
                 *       "status": "I",
                 *       "categorySet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 2
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 9
                 *           },
                 *           "value": "PO-1234"
                 *         }
                 *       ]
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedContractRequest"];
                /**
                 * @example {
                 *       "status": "I",
                 *       "categorySet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 2
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 9
                 *           },
                 *           "value": "PO-1234"
                 *         }
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedContractRequest"];
            };
        };
        responses: {
            /** @description OK: `Contract`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "title": "Website renewal",
                     *       "amount": 12000000,
                     *       "type": "I",
                     *       "status": "P",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contractNumber": "C-2026-001",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-03-31",
                     *       "inquiry": {
                     *         "id": 5,
                     *         "uniqueId": "INQ-0005",
                     *         "status": {
                     *           "id": 2,
                     *           "title": "Won",
                     *           "folder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           }
                     *         },
                     *         "name": "Website renewal",
                     *         "estimate": "12000000.00",
                     *         "inquiryDate": "2026-11-02"
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "categorySet": [
                     *         {
                     *           "id": 1,
                     *           "title": "Web development"
                     *         }
                     *       ],
                     *       "vatType": "E",
                     *       "settlementFrequency": null,
                     *       "settlementCycle": null,
                     *       "settlementDay": null,
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 9,
                     *             "name": "Project code",
                     *             "dataType": "S",
                     *             "optionSet": [],
                     *             "memberSet": []
                     *           },
                     *           "value": "PRJ-77"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Contract"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path: {
                contract_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedNoteList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "content": "Called the client about the second invoice.",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "member": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedNoteList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    contract_history_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                contract_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["NoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["NoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["NoteRequest"];
            };
        };
        responses: {
            /** @description Created: `Note`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Note"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_history_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contract_id: number;
                history_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `NoteDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NoteDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    contract_history_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                contract_id: number;
                history_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_history_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                contract_id: number;
                history_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "application/json": components["schemas"]["PatchedNoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedNoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedNoteRequest"];
            };
        };
        responses: {
            /** @description OK: `NoteDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NoteDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    contract_category_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedIdTitleList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 1,
                     *           "title": "Web development"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedIdTitleList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedEstimateItemListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/estimate/item?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "title": "UI design",
                     *           "unitCost": "4500000.00",
                     *           "unit": "M/M",
                     *           "description": "Screens, components and a style guide.",
                     *           "image": "",
                     *           "classification": {
                     *             "id": 1,
                     *             "title": "Design"
                     *           },
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedEstimateItemListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "UI design",
                 *       "unitCost": "4500000",
                 *       "unit": "M/M",
                 *       "description": "Screens, components and a style guide.",
                 *       "classification": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["EstimateItemRequest"];
                /**
                 * @example {
                 *       "title": "UI design",
                 *       "unitCost": "4500000",
                 *       "unit": "M/M",
                 *       "description": "Screens, components and a style guide.",
                 *       "classification": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["EstimateItemRequest"];
                /**
                 * @example {
                 *       "title": "UI design",
                 *       "unitCost": "4500000",
                 *       "unit": "M/M",
                 *       "description": "Screens, components and a style guide.",
                 *       "classification": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["EstimateItemRequest"];
            };
        };
        responses: {
            /** @description Created: `EstimateItemListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "title": "UI design",
                     *       "unitCost": "4500000.00",
                     *       "unit": "M/M",
                     *       "description": "Screens, components and a style guide.",
                     *       "image": "",
                     *       "classification": {
                     *         "id": 1,
                     *         "title": "Design"
                     *       },
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["EstimateItemListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `EstimateItem`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "title": "UI design",
                     *       "unitCost": "4500000.00",
                     *       "unit": "M/M",
                     *       "description": "Screens, components and a style guide.",
                     *       "image": "",
                     *       "classification": {
                     *         "id": 1,
                     *         "title": "Design"
                     *       },
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["EstimateItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                item_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                item_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "unitCost": "5000000.00",
                 *       "classification": null
                 *     }
                 */
                "application/json": components["schemas"]["PatchedEstimateItemRequest"];
                /**
                 * @example {
                 *       "unitCost": "5000000.00",
                 *       "classification": null
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedEstimateItemRequest"];
                /**
                 * @example {
                 *       "unitCost": "5000000.00",
                 *       "classification": null
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedEstimateItemRequest"];
            };
        };
        responses: {
            /** @description OK: `EstimateItem`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "title": "UI design",
                     *       "unitCost": "4500000.00",
                     *       "unit": "M/M",
                     *       "description": "Screens, components and a style guide.",
                     *       "image": "",
                     *       "classification": {
                     *         "id": 1,
                     *         "title": "Design"
                     *       },
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["EstimateItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    estimate_item_classification_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedIdTitleList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 1,
                     *           "title": "Design"
                     *         },
                     *         {
                     *           "id": 2,
                     *           "title": "Development"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedIdTitleList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    event_list: {
        parameters: {
            query?: {
                /** @description Only the events with a greater `sequence`, **oldest first**: the last sequence a consumer processed (0 to start). The way to keep a copy in sync; polling by `created` can miss a change that commits late. */
                after_sequence?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                created_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                created_start?: string;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Event types; repeat for any of several. Extension: prefixes `inquiry.*`, `*` all (docs/api.md#filtering-by-type). */
                type?: string[];
                /** @description Long-poll, with `after_sequence`: seconds to wait for a matching event (docs/api.md#long-poll). */
                wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedEventList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/event?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 9001,
                     *           "sequence": 120,
                     *           "type": "client.updated",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "changedFields": [
                     *             "email"
                     *           ],
                     *           "parent": null,
                     *           "data": {
                     *             "id": 42,
                     *             "companyName": "Acme Corp.",
                     *             "email": "ap@acme.example",
                     *             "updated": "2026-11-22T05:31:56.123Z"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedEventList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    event_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Event`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 9001,
                     *       "sequence": 120,
                     *       "type": "client.updated",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "changedFields": [
                     *         "email"
                     *       ],
                     *       "parent": null,
                     *       "data": {
                     *         "id": 42,
                     *         "companyName": "Acme Corp.",
                     *         "email": "ap@acme.example",
                     *         "updated": "2026-11-22T05:31:56.123Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    event_stream_list: {
        parameters: {
            query?: {
                /** @description Start after this sequence; wins over `Last-Event-ID` (default: it, else 0). */
                after_sequence?: number;
                /** @description Event types; repeat for any of several. Extension: prefixes `inquiry.*`, `*` all (docs/api.md#filtering-by-type). */
                type?: string[];
            };
            header?: {
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id: 120
                     *     event: client.created
                     *     data: {…}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    field_list: {
        parameters: {
            query?: {
                /** @description Record kind: I inquiry, C client, CO contract. */
                category?: "I" | "C" | "CO";
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedFieldList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 2,
                     *           "name": "Channel",
                     *           "dataType": "SL",
                     *           "optionSet": [
                     *             {
                     *               "id": "web",
                     *               "title": "Web"
                     *             },
                     *             {
                     *               "id": "phone",
                     *               "title": "Phone"
                     *             }
                     *           ],
                     *           "memberSet": []
                     *         },
                     *         {
                     *           "id": 1,
                     *           "name": "Account owner",
                     *           "dataType": "M",
                     *           "optionSet": [],
                     *           "memberSet": [
                     *             {
                     *               "id": 1,
                     *               "nickname": "Kim",
                     *               "email": "kim@example.com",
                     *               "isActive": true,
                     *               "grade": {
                     *                 "id": 1,
                     *                 "title": "Owner"
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedFieldList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    folder_list: {
        parameters: {
            query?: {
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "name": "Sales",
                     *         "isDefault": true
                     *       },
                     *       {
                     *         "id": 2,
                     *         "name": "Archive",
                     *         "isDefault": false
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["Folder"][];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_list: {
        parameters: {
            query?: {
                /** @description YYYY-MM-DD, inclusive. */
                created_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                created_start?: string;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                folder_id?: number;
                /** @description YYYY-MM-DD, inclusive. */
                inquiry_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                inquiry_date_start?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                status_id?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/inquiry?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "uniqueId": "7",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "status": {
                     *             "id": 1,
                     *             "title": "New",
                     *             "folder": {
                     *               "id": 1,
                     *               "name": "Sales"
                     *             }
                     *           },
                     *           "client": {
                     *             "id": 42,
                     *             "status": {
                     *               "id": 1,
                     *               "title": "Lead"
                     *             },
                     *             "companyName": "Acme Corp.",
                     *             "inCharge": "Jane Doe",
                     *             "position": "CTO",
                     *             "contact": "+82-2-555-0100",
                     *             "email": "jane@acme.example"
                     *           },
                     *           "contract": null,
                     *           "name": "Website renewal",
                     *           "estimate": "1500000.00",
                     *           "inquiryDate": "2026-11-22",
                     *           "inChargeSet": [
                     *             {
                     *               "id": 1,
                     *               "nickname": "Kim",
                     *               "email": "kim@example.com",
                     *               "isActive": true,
                     *               "grade": {
                     *                 "id": 1,
                     *                 "title": "Owner"
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Website renewal",
                 *       "client": {
                 *         "id": 42
                 *       },
                 *       "estimate": "1500000",
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         }
                 *       ],
                 *       "workSet": [
                 *         {
                 *           "name": "Send a quote"
                 *         }
                 *       ],
                 *       "funnel": {
                 *         "utmSource": "google",
                 *         "utmMedium": "cpc"
                 *       },
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": "web"
                 *         }
                 *       ],
                 *       "fileLinkSet": [
                 *         {
                 *           "text": "Brief",
                 *           "link": "https://docs.example.com/brief"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["InquiryRequest"];
                /**
                 * @example {
                 *       "name": "Website renewal",
                 *       "client": {
                 *         "id": 42
                 *       },
                 *       "estimate": "1500000",
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         }
                 *       ],
                 *       "workSet": [
                 *         {
                 *           "name": "Send a quote"
                 *         }
                 *       ],
                 *       "funnel": {
                 *         "utmSource": "google",
                 *         "utmMedium": "cpc"
                 *       },
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": "web"
                 *         }
                 *       ],
                 *       "fileLinkSet": [
                 *         {
                 *           "text": "Brief",
                 *           "link": "https://docs.example.com/brief"
                 *         }
                 *       ]
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["InquiryRequest"];
                /**
                 * @example {
                 *       "name": "Website renewal",
                 *       "client": {
                 *         "id": 42
                 *       },
                 *       "estimate": "1500000",
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         }
                 *       ],
                 *       "workSet": [
                 *         {
                 *           "name": "Send a quote"
                 *         }
                 *       ],
                 *       "funnel": {
                 *         "utmSource": "google",
                 *         "utmMedium": "cpc"
                 *       },
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": "web"
                 *         }
                 *       ],
                 *       "fileLinkSet": [
                 *         {
                 *           "text": "Brief",
                 *           "link": "https://docs.example.com/brief"
                 *         }
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["InquiryRequest"];
            };
        };
        responses: {
            /** @description Created: `InquiryCreated`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "uniqueId": "7",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "New",
                     *         "folder": {
                     *           "id": 1,
                     *           "name": "Sales"
                     *         }
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "contract": null,
                     *       "name": "Website renewal",
                     *       "estimate": "1500000.00",
                     *       "inquiryDate": "2026-11-22",
                     *       "inChargeSet": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryCreated"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Inquiry`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "uniqueId": "7",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "New",
                     *         "folder": {
                     *           "id": 1,
                     *           "name": "Sales"
                     *         }
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "contract": null,
                     *       "name": "Website renewal",
                     *       "estimate": "1500000.00",
                     *       "inquiryDate": "2026-11-22",
                     *       "content": "Wants a new website before spring.",
                     *       "funnel": {
                     *         "utmCampaign": "spring",
                     *         "utmSource": "google",
                     *         "utmMedium": "cpc",
                     *         "utmContent": null,
                     *         "utmTerm": null,
                     *         "guestUid": null,
                     *         "gclid": null
                     *       },
                     *       "workSet": [
                     *         {
                     *           "name": "Send a quote"
                     *         }
                     *       ],
                     *       "inChargeSet": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ],
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 2,
                     *             "name": "Channel",
                     *             "dataType": "SL",
                     *             "optionSet": [
                     *               {
                     *                 "id": "web",
                     *                 "title": "Web"
                     *               }
                     *             ],
                     *             "memberSet": []
                     *           },
                     *           "value": "web"
                     *         }
                     *       ],
                     *       "fileLinkSet": [
                     *         {
                     *           "id": 3,
                     *           "text": "Brief",
                     *           "link": "https://docs.example.com/brief",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ],
                     *       "fileSet": [
                     *         {
                     *           "id": 7,
                     *           "name": "Proposal.pdf",
                     *           "file": "https://api.example.com/files/42/9f86d081884c7d659a2feaa0c55ad015.pdf?expires=1795415516&name=Proposal.pdf&signature=Xc2v8Jw1m0H5kq9LzR4tYpB7nA3sD6fG2hJ8kL0zQwE",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Inquiry"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": {
                 *         "id": 2
                 *       },
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 3
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": ""
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["PatchedInquiryRequest"];
                /**
                 * @example {
                 *       "status": {
                 *         "id": 2
                 *       },
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 3
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": ""
                 *         }
                 *       ]
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedInquiryRequest"];
                /**
                 * @example {
                 *       "status": {
                 *         "id": 2
                 *       },
                 *       "inChargeSet": [
                 *         {
                 *           "id": 1
                 *         },
                 *         {
                 *           "id": 3
                 *         }
                 *       ],
                 *       "fieldSet": [
                 *         {
                 *           "field": {
                 *             "id": 2
                 *           },
                 *           "value": ""
                 *         }
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedInquiryRequest"];
            };
        };
        responses: {
            /** @description OK: `Inquiry`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "uniqueId": "7",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "status": {
                     *         "id": 1,
                     *         "title": "New",
                     *         "folder": {
                     *           "id": 1,
                     *           "name": "Sales"
                     *         }
                     *       },
                     *       "client": {
                     *         "id": 42,
                     *         "status": {
                     *           "id": 1,
                     *           "title": "Lead"
                     *         },
                     *         "companyName": "Acme Corp.",
                     *         "inCharge": "Jane Doe",
                     *         "position": "CTO",
                     *         "contact": "+82-2-555-0100",
                     *         "email": "jane@acme.example"
                     *       },
                     *       "contract": null,
                     *       "name": "Website renewal",
                     *       "estimate": "1500000.00",
                     *       "inquiryDate": "2026-11-22",
                     *       "content": "Wants a new website before spring.",
                     *       "funnel": {
                     *         "utmCampaign": "spring",
                     *         "utmSource": "google",
                     *         "utmMedium": "cpc",
                     *         "utmContent": null,
                     *         "utmTerm": null,
                     *         "guestUid": null,
                     *         "gclid": null
                     *       },
                     *       "workSet": [
                     *         {
                     *           "name": "Send a quote"
                     *         }
                     *       ],
                     *       "inChargeSet": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ],
                     *       "fieldSet": [
                     *         {
                     *           "field": {
                     *             "id": 2,
                     *             "name": "Channel",
                     *             "dataType": "SL",
                     *             "optionSet": [
                     *               {
                     *                 "id": "web",
                     *                 "title": "Web"
                     *               }
                     *             ],
                     *             "memberSet": []
                     *           },
                     *           "value": "web"
                     *         }
                     *       ],
                     *       "fileLinkSet": [
                     *         {
                     *           "id": 3,
                     *           "text": "Brief",
                     *           "link": "https://docs.example.com/brief",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ],
                     *       "fileSet": [
                     *         {
                     *           "id": 7,
                     *           "name": "Proposal.pdf",
                     *           "file": "https://api.example.com/files/42/9f86d081884c7d659a2feaa0c55ad015.pdf?expires=1795415516&name=Proposal.pdf&signature=Xc2v8Jw1m0H5kq9LzR4tYpB7nA3sD6fG2hJ8kL0zQwE",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Inquiry"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_email_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryEmailHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 5,
                     *           "title": "Your quote for the website renewal",
                     *           "fromEmail": "kim@example.com",
                     *           "toSet": [
                     *             {
                     *               "toEmail": "jane@acme.example"
                     *             }
                     *           ],
                     *           "ccSet": [
                     *             {
                     *               "ccEmail": "sales@example.com"
                     *             }
                     *           ],
                     *           "status": "S",
                     *           "sentAt": "2026-11-22T05:31:56.123Z",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryEmailHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_email_reply_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryEmailReplyHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 6,
                     *           "title": "Re: Your quote for the website renewal",
                     *           "fromEmail": "jane@acme.example",
                     *           "toSet": [
                     *             {
                     *               "toEmail": "kim@example.com"
                     *             }
                     *           ],
                     *           "ccSet": [],
                     *           "isUnread": true,
                     *           "receivedAt": "2026-11-22T05:31:56.123Z",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryEmailReplyHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_file_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                file_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_folder_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryFolderHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 4,
                     *           "folder": {
                     *             "id": 2,
                     *             "name": "Closed"
                     *           },
                     *           "previousFolder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           },
                     *           "member": null,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryFolderHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryTextHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 31,
                     *           "content": "Called the client; they want a quote by Friday.",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "member": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryTextHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_history_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["InquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["InquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["InquiryTextHistoryRequest"];
            };
        };
        responses: {
            /** @description Created: `InquiryTextHistory`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistory"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_history_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `InquiryTextHistoryDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistoryDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_history_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_history_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "application/json": components["schemas"]["PatchedInquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedInquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedInquiryTextHistoryRequest"];
            };
        };
        responses: {
            /** @description OK: `InquiryTextHistoryDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistoryDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_status_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryStatusHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 12,
                     *           "status": {
                     *             "id": 2,
                     *             "title": "Won",
                     *             "folder": {
                     *               "id": 2,
                     *               "name": "Closed"
                     *             }
                     *           },
                     *           "previousStatus": {
                     *             "id": 1,
                     *             "title": "New",
                     *             "folder": {
                     *               "id": 1,
                     *               "name": "Sales"
                     *             }
                     *           },
                     *           "member": null,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryStatusHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_submit_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquirySubmitHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 2,
                     *           "form": {
                     *             "id": 1,
                     *             "title": "Contact us"
                     *           },
                     *           "answers": [
                     *             {
                     *               "question": "Company",
                     *               "answer": "Acme Corp."
                     *             },
                     *             {
                     *               "question": "Budget",
                     *               "answer": "10,000,000 KRW"
                     *             }
                     *           ],
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquirySubmitHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_text_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryTextHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 31,
                     *           "content": "Called the client; they want a quote by Friday.",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "member": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryTextHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_text_history_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["InquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["InquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; they want a quote by Friday.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["InquiryTextHistoryRequest"];
            };
        };
        responses: {
            /** @description Created: `InquiryTextHistory`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistory"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_text_history_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `InquiryTextHistoryDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistoryDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_text_history_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_text_history_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                inquiry_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "application/json": components["schemas"]["PatchedInquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedInquiryTextHistoryRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; quote due Monday instead."
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedInquiryTextHistoryRequest"];
            };
        };
        responses: {
            /** @description OK: `InquiryTextHistoryDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "content": "Called the client; they want a quote by Friday.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["InquiryTextHistoryDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_status_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                folder_id?: number;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryStatusList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 1,
                     *           "title": "New",
                     *           "folder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           }
                     *         },
                     *         {
                     *           "id": 2,
                     *           "title": "Won",
                     *           "folder": {
                     *             "id": 1,
                     *             "name": "Sales"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryStatusList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    inquiry_work_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedInquiryWorkList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 11,
                     *           "name": "Send a quote",
                     *           "inquiry": {
                     *             "id": 7,
                     *             "uniqueId": "7",
                     *             "name": "Website renewal"
                     *           },
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedInquiryWorkList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    log_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedLogList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/log/?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 812,
                     *           "ipAddress": "203.0.113.7",
                     *           "method": "POST",
                     *           "path": "/v1/client",
                     *           "referrer": "",
                     *           "statusCode": "201",
                     *           "requestBody": {
                     *             "companyName": "Acme Corp."
                     *           },
                     *           "responseBody": {
                     *             "id": 42,
                     *             "companyName": "Acme Corp.",
                     *             "created": "2026-11-22T05:31:56.123Z",
                     *             "status": null,
                     *             "inCharge": null,
                     *             "position": null,
                     *             "contact": null,
                     *             "email": null
                     *           },
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedLogList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    member_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_active?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedMemberList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedMemberList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    notification_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Only the notifications of this member. */
                member_id?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedNotificationList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "type": "inquiry.status_changed",
                     *           "title": "Inquiry status changed: Website renewal",
                     *           "content": "Inquiry #1 \"Website renewal\" is now \"Proposal sent\".",
                     *           "inquiry": {
                     *             "id": 12
                     *           },
                     *           "member": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           },
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedNotificationList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    presigned_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "proposal.pdf"
                 *     }
                 */
                "application/json": components["schemas"]["PresignedRequest"];
                /**
                 * @example {
                 *       "name": "proposal.pdf"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PresignedRequest"];
                /**
                 * @example {
                 *       "name": "proposal.pdf"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PresignedRequest"];
            };
        };
        responses: {
            /** @description Created: `Presigned`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "url": "https://api.example.com/files/42/9f86d081884c7d659a2feaa0c55ad015.pdf?expires=1795411916&signature=q1bC3vN0a6xH8Gv2YwqjP0m7X9s0pXQW4uKc1eE7fZk",
                     *       "path": "42/9f86d081884c7d659a2feaa0c55ad015.pdf"
                     *     }
                     */
                    "application/json": components["schemas"]["Presigned"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    project_list: {
        parameters: {
            query?: {
                /** @description Only the projects linked to this contract. */
                contract_id?: number;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description YYYY-MM-DD, inclusive. */
                end_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                end_date_start?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD, inclusive. */
                start_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                start_date_start?: string;
                /** @description Only projects in this status: U scheduled, I in progress, A additional period, E ended. */
                status?: "U" | "I" | "A" | "E";
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedProjectListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/project?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "contract": {
                     *             "id": 3,
                     *             "title": "Website renewal",
                     *             "amount": 24000000,
                     *             "type": "I",
                     *             "status": "I",
                     *             "startDate": "2026-12-01",
                     *             "endDate": "2027-02-28"
                     *           },
                     *           "title": "Website renewal",
                     *           "status": "I",
                     *           "symbolColor": "#2f80ed",
                     *           "startDate": "2026-12-01",
                     *           "endDate": "2027-02-28",
                     *           "actualEndDate": null,
                     *           "isHidden": false,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedProjectListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    project_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "contract": {
                 *         "id": 3
                 *       },
                 *       "title": "Website renewal",
                 *       "status": "U",
                 *       "symbolColor": "#2f80ed",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-02-28"
                 *     }
                 */
                "application/json": components["schemas"]["ProjectRequest"];
                /**
                 * @example {
                 *       "contract": {
                 *         "id": 3
                 *       },
                 *       "title": "Website renewal",
                 *       "status": "U",
                 *       "symbolColor": "#2f80ed",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-02-28"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["ProjectRequest"];
                /**
                 * @example {
                 *       "contract": {
                 *         "id": 3
                 *       },
                 *       "title": "Website renewal",
                 *       "status": "U",
                 *       "symbolColor": "#2f80ed",
                 *       "startDate": "2026-12-01",
                 *       "endDate": "2027-02-28"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["ProjectRequest"];
            };
        };
        responses: {
            /** @description Created: `ProjectListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "contract": {
                     *         "id": 3,
                     *         "title": "Website renewal",
                     *         "amount": 24000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-02-28"
                     *       },
                     *       "title": "Website renewal",
                     *       "status": "I",
                     *       "symbolColor": "#2f80ed",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-02-28",
                     *       "actualEndDate": null,
                     *       "isHidden": false,
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ProjectListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    project_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Project`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "contract": {
                     *         "id": 3,
                     *         "title": "Website renewal",
                     *         "amount": 24000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-02-28"
                     *       },
                     *       "title": "Website renewal",
                     *       "status": "I",
                     *       "symbolColor": "#2f80ed",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-02-28",
                     *       "actualEndDate": null,
                     *       "isHidden": false,
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    project_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    project_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                project_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "E",
                 *       "actualEndDate": "2027-03-04"
                 *     }
                 */
                "application/json": components["schemas"]["PatchedProjectRequest"];
                /**
                 * @example {
                 *       "status": "E",
                 *       "actualEndDate": "2027-03-04"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedProjectRequest"];
                /**
                 * @example {
                 *       "status": "E",
                 *       "actualEndDate": "2027-03-04"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedProjectRequest"];
            };
        };
        responses: {
            /** @description OK: `Project`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "contract": {
                     *         "id": 3,
                     *         "title": "Website renewal",
                     *         "amount": 24000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-02-28"
                     *       },
                     *       "title": "Website renewal",
                     *       "status": "I",
                     *       "symbolColor": "#2f80ed",
                     *       "startDate": "2026-12-01",
                     *       "endDate": "2027-02-28",
                     *       "actualEndDate": null,
                     *       "isHidden": false,
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_list: {
        parameters: {
            query?: {
                contract_id?: number;
                /** @description YYYY-MM-DD, inclusive. */
                created_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                created_start?: string;
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description YYYY-MM-DD, inclusive. */
                due_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                due_date_start?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                /** @description YYYY-MM-DD, inclusive. */
                settled_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                settled_date_start?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedSettlementListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 31,
                     *           "title": "Down payment",
                     *           "status": "C",
                     *           "amount": 3000000,
                     *           "additionalAmount": 0,
                     *           "vat": 300000,
                     *           "typeAlias": "Down payment",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "contract": {
                     *             "id": 12,
                     *             "title": "Website renewal",
                     *             "amount": 12000000,
                     *             "type": "I",
                     *             "status": "I",
                     *             "startDate": "2026-12-01",
                     *             "endDate": "2027-03-31"
                     *           },
                     *           "dueDate": "2026-12-10",
                     *           "settledDate": null
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedSettlementListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    settlement_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Down payment",
                 *       "amount": 3000000,
                 *       "additionalAmount": 0,
                 *       "vat": 300000,
                 *       "contract": {
                 *         "id": 12
                 *       },
                 *       "type": {
                 *         "id": 1
                 *       },
                 *       "dueDate": "2026-12-10",
                 *       "isTaxInvoiceNeeded": true
                 *     }
                 */
                "application/json": components["schemas"]["SettlementRequest"];
                /**
                 * @example {
                 *       "title": "Down payment",
                 *       "amount": 3000000,
                 *       "additionalAmount": 0,
                 *       "vat": 300000,
                 *       "contract": {
                 *         "id": 12
                 *       },
                 *       "type": {
                 *         "id": 1
                 *       },
                 *       "dueDate": "2026-12-10",
                 *       "isTaxInvoiceNeeded": true
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["SettlementRequest"];
                /**
                 * @example {
                 *       "title": "Down payment",
                 *       "amount": 3000000,
                 *       "additionalAmount": 0,
                 *       "vat": 300000,
                 *       "contract": {
                 *         "id": 12
                 *       },
                 *       "type": {
                 *         "id": 1
                 *       },
                 *       "dueDate": "2026-12-10",
                 *       "isTaxInvoiceNeeded": true
                 *     }
                 */
                "multipart/form-data": components["schemas"]["SettlementRequest"];
            };
        };
        responses: {
            /** @description Created: `SettlementListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "title": "Down payment",
                     *       "status": "C",
                     *       "amount": 3000000,
                     *       "additionalAmount": 0,
                     *       "vat": 300000,
                     *       "typeAlias": "Down payment",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contract": {
                     *         "id": 12,
                     *         "title": "Website renewal",
                     *         "amount": 12000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-03-31"
                     *       },
                     *       "dueDate": "2026-12-10",
                     *       "settledDate": null
                     *     }
                     */
                    "application/json": components["schemas"]["SettlementListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Settlement`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "title": "Down payment",
                     *       "status": "C",
                     *       "amount": 3000000,
                     *       "additionalAmount": 0,
                     *       "vat": 300000,
                     *       "typeAlias": "Down payment",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contract": {
                     *         "id": 12,
                     *         "title": "Website renewal",
                     *         "amount": 12000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-03-31"
                     *       },
                     *       "dueDate": "2026-12-10",
                     *       "settledDate": null,
                     *       "settlementRound": 1,
                     *       "isTaxInvoiceIssued": false,
                     *       "isTaxInvoiceNeeded": true,
                     *       "type": {
                     *         "id": 1,
                     *         "baseType": "INI",
                     *         "category": "I",
                     *         "title": "Down payment",
                     *         "allowsMultipleRounds": false
                     *       },
                     *       "taxInvoiceIssuedDate": null,
                     *       "taxInvoiceIssueDueDate": "2026-12-10",
                     *       "inChargeSet": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    settlement_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "S",
                 *       "settledDate": "2026-12-09",
                 *       "isTaxInvoiceIssued": true,
                 *       "taxInvoiceIssuedDate": "2026-12-09"
                 *     }
                 */
                "application/json": components["schemas"]["PatchedSettlementRequest"];
                /**
                 * @example {
                 *       "status": "S",
                 *       "settledDate": "2026-12-09",
                 *       "isTaxInvoiceIssued": true,
                 *       "taxInvoiceIssuedDate": "2026-12-09"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedSettlementRequest"];
                /**
                 * @example {
                 *       "status": "S",
                 *       "settledDate": "2026-12-09",
                 *       "isTaxInvoiceIssued": true,
                 *       "taxInvoiceIssuedDate": "2026-12-09"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedSettlementRequest"];
            };
        };
        responses: {
            /** @description OK: `Settlement`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 31,
                     *       "title": "Down payment",
                     *       "status": "C",
                     *       "amount": 3000000,
                     *       "additionalAmount": 0,
                     *       "vat": 300000,
                     *       "typeAlias": "Down payment",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "contract": {
                     *         "id": 12,
                     *         "title": "Website renewal",
                     *         "amount": 12000000,
                     *         "type": "I",
                     *         "status": "I",
                     *         "startDate": "2026-12-01",
                     *         "endDate": "2027-03-31"
                     *       },
                     *       "dueDate": "2026-12-10",
                     *       "settledDate": null,
                     *       "settlementRound": 1,
                     *       "isTaxInvoiceIssued": false,
                     *       "isTaxInvoiceNeeded": true,
                     *       "type": {
                     *         "id": 1,
                     *         "baseType": "INI",
                     *         "category": "I",
                     *         "title": "Down payment",
                     *         "allowsMultipleRounds": false
                     *       },
                     *       "taxInvoiceIssuedDate": null,
                     *       "taxInvoiceIssueDueDate": "2026-12-10",
                     *       "inChargeSet": [
                     *         {
                     *           "id": 1,
                     *           "nickname": "Kim",
                     *           "email": "kim@example.com",
                     *           "isActive": true,
                     *           "grade": {
                     *             "id": 1,
                     *             "title": "Owner"
                     *           }
                     *         }
                     *       ],
                     *       "isHidden": false,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedNoteList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "content": "Called the client about the second invoice.",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "member": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedNoteList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    settlement_history_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["NoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["NoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client about the second invoice.",
                 *       "member": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["NoteRequest"];
            };
        };
        responses: {
            /** @description Created: `Note`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Note"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_history_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                history_id: number;
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `NoteDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NoteDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    settlement_history_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_history_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                history_id: number;
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "application/json": components["schemas"]["PatchedNoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedNoteRequest"];
                /**
                 * @example {
                 *       "content": "Called the client; the invoice is paid."
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedNoteRequest"];
            };
        };
        responses: {
            /** @description OK: `NoteDetail`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "content": "Called the client about the second invoice.",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "member": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["NoteDetail"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    settlement_status_history_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path: {
                settlement_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedSettlementStatusHistoryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 3,
                     *           "status": "S",
                     *           "previousStatus": "C",
                     *           "member": null,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedSettlementStatusHistoryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    settlement_type_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": 1,
                     *         "baseType": "INI",
                     *         "category": "I",
                     *         "title": "Down payment",
                     *         "allowsMultipleRounds": false
                     *       },
                     *       {
                     *         "id": 2,
                     *         "baseType": "SUB",
                     *         "category": "I",
                     *         "title": "Interim payment",
                     *         "allowsMultipleRounds": true
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["SettlementType"][];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    todo_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description YYYY-MM-DD, inclusive. */
                due_date_end?: string;
                /** @description YYYY-MM-DD, inclusive. */
                due_date_start?: string;
                inquiry_id?: number;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_complete?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedTodoListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/todo?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 5,
                     *           "inquiry": {
                     *             "id": 42,
                     *             "uniqueId": "1042",
                     *             "name": "Website renewal"
                     *           },
                     *           "inCharge": {
                     *             "id": 1,
                     *             "nickname": "Kim",
                     *             "email": "kim@example.com",
                     *             "isActive": true,
                     *             "grade": {
                     *               "id": 1,
                     *               "title": "Owner"
                     *             }
                     *           },
                     *           "type": "CA",
                     *           "dueDate": "2026-11-25",
                     *           "dueTime": "10:00:00",
                     *           "action": "Call back about the estimate",
                     *           "isComplete": false,
                     *           "completedAt": null,
                     *           "dDay": 3,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedTodoListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    todo_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "inquiry": {
                 *         "id": 42
                 *       },
                 *       "type": "CA",
                 *       "dueDate": "2026-11-25",
                 *       "dueTime": "10:00",
                 *       "action": "Call back about the estimate",
                 *       "inCharge": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["TodoRequest"];
                /**
                 * @example {
                 *       "inquiry": {
                 *         "id": 42
                 *       },
                 *       "type": "CA",
                 *       "dueDate": "2026-11-25",
                 *       "dueTime": "10:00",
                 *       "action": "Call back about the estimate",
                 *       "inCharge": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["TodoRequest"];
                /**
                 * @example {
                 *       "inquiry": {
                 *         "id": 42
                 *       },
                 *       "type": "CA",
                 *       "dueDate": "2026-11-25",
                 *       "dueTime": "10:00",
                 *       "action": "Call back about the estimate",
                 *       "inCharge": {
                 *         "id": 1
                 *       }
                 *     }
                 */
                "multipart/form-data": components["schemas"]["TodoRequest"];
            };
        };
        responses: {
            /** @description Created: `TodoListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 5,
                     *       "inquiry": {
                     *         "id": 42,
                     *         "uniqueId": "1042",
                     *         "name": "Website renewal"
                     *       },
                     *       "inCharge": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "type": "CA",
                     *       "dueDate": "2026-11-25",
                     *       "dueTime": "10:00:00",
                     *       "action": "Call back about the estimate",
                     *       "isComplete": false,
                     *       "completedAt": null,
                     *       "dDay": 3,
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TodoListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    todo_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                todo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Todo`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 5,
                     *       "inquiry": {
                     *         "id": 42,
                     *         "uniqueId": "1042",
                     *         "name": "Website renewal"
                     *       },
                     *       "inCharge": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "completedInCharge": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "type": "CA",
                     *       "dueDate": "2026-11-25",
                     *       "dueTime": "10:00:00",
                     *       "action": "Call back about the estimate",
                     *       "actionHistory": "Called; they accept the estimate.",
                     *       "isComplete": true,
                     *       "completedAt": "2026-11-24T01:12:00.000Z",
                     *       "dDay": 3,
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-24T01:12:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Todo"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    todo_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                todo_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    todo_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                todo_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isComplete": true,
                 *       "completedInCharge": {
                 *         "id": 1
                 *       },
                 *       "actionHistory": "Called; they accept the estimate."
                 *     }
                 */
                "application/json": components["schemas"]["PatchedTodoRequest"];
                /**
                 * @example {
                 *       "isComplete": true,
                 *       "completedInCharge": {
                 *         "id": 1
                 *       },
                 *       "actionHistory": "Called; they accept the estimate."
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedTodoRequest"];
                /**
                 * @example {
                 *       "isComplete": true,
                 *       "completedInCharge": {
                 *         "id": 1
                 *       },
                 *       "actionHistory": "Called; they accept the estimate."
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedTodoRequest"];
            };
        };
        responses: {
            /** @description OK: `Todo`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 5,
                     *       "inquiry": {
                     *         "id": 42,
                     *         "uniqueId": "1042",
                     *         "name": "Website renewal"
                     *       },
                     *       "inCharge": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "completedInCharge": {
                     *         "id": 1,
                     *         "nickname": "Kim",
                     *         "email": "kim@example.com",
                     *         "isActive": true,
                     *         "grade": {
                     *           "id": 1,
                     *           "title": "Owner"
                     *         }
                     *       },
                     *       "type": "CA",
                     *       "dueDate": "2026-11-25",
                     *       "dueTime": "10:00:00",
                     *       "action": "Call back about the estimate",
                     *       "actionHistory": "Called; they accept the estimate.",
                     *       "isComplete": true,
                     *       "completedAt": "2026-11-24T01:12:00.000Z",
                     *       "dDay": 3,
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "updated": "2026-11-24T01:12:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Todo"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedWebhookList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 7,
                     *           "url": "https://hooks.example.com/bizapi",
                     *           "eventTypes": [
                     *             "inquiry.created",
                     *             "inquiry.updated"
                     *           ],
                     *           "description": "CRM sync",
                     *           "isActive": true,
                     *           "format": "standard",
                     *           "isParked": false,
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedWebhookList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    webhook_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/bizapi",
                 *       "eventTypes": [
                 *         "inquiry.created",
                 *         "inquiry.updated"
                 *       ],
                 *       "description": "CRM sync"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRequest"];
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/bizapi",
                 *       "eventTypes": [
                 *         "inquiry.created",
                 *         "inquiry.updated"
                 *       ],
                 *       "description": "CRM sync"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["WebhookRequest"];
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/bizapi",
                 *       "eventTypes": [
                 *         "inquiry.created",
                 *         "inquiry.updated"
                 *       ],
                 *       "description": "CRM sync"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description A new endpoint, with its signing secret (shown only here). */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "url": "https://hooks.example.com/bizapi",
                     *       "eventTypes": [
                     *         "inquiry.created",
                     *         "inquiry.updated"
                     *       ],
                     *       "description": "CRM sync",
                     *       "isActive": true,
                     *       "format": "standard",
                     *       "isParked": false,
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A URL that receives the business’s events by HTTP POST, signed as Standard Webhooks sign them. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "url": "https://hooks.example.com/bizapi",
                     *       "eventTypes": [
                     *         "inquiry.created",
                     *         "inquiry.updated"
                     *       ],
                     *       "description": "CRM sync",
                     *       "isActive": true,
                     *       "format": "standard",
                     *       "isParked": false,
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    webhook_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "isActive": true
                 *     }
                 */
                "application/json": components["schemas"]["PatchedWebhookRequest"];
                /**
                 * @example {
                 *       "isActive": true
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedWebhookRequest"];
                /**
                 * @example {
                 *       "isActive": true
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedWebhookRequest"];
            };
        };
        responses: {
            /** @description A URL that receives the business’s events by HTTP POST, signed as Standard Webhooks sign them. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "url": "https://hooks.example.com/bizapi",
                     *       "eventTypes": [
                     *         "inquiry.created",
                     *         "inquiry.updated"
                     *       ],
                     *       "description": "CRM sync",
                     *       "isActive": true,
                     *       "format": "standard",
                     *       "isParked": false,
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_delivery_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                /** @description Only deliveries in this state. */
                status?: "pending" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedWebhookDeliveryList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": null,
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 311,
                     *           "event": {
                     *             "id": 9001,
                     *             "type": "inquiry.updated"
                     *           },
                     *           "status": "pending",
                     *           "attempts": 2,
                     *           "lastStatusCode": 503,
                     *           "lastError": "HTTP 503",
                     *           "lastAttemptAt": "2026-11-22T05:37:01.120Z",
                     *           "nextAttemptAt": "2026-11-22T06:07:01.120Z",
                     *           "created": "2026-11-22T05:31:56.123Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedWebhookDeliveryList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    webhook_delivery_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                delivery_id: number;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: `WebhookDelivery`. */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 311,
                     *       "event": {
                     *         "id": 9002,
                     *         "type": "webhook.test"
                     *       },
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "lastStatusCode": null,
                     *       "lastError": null,
                     *       "lastAttemptAt": null,
                     *       "nextAttemptAt": "2026-11-22T05:31:56.123Z",
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_recover_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-22T00:00:00Z"
                 *     }
                 */
                "application/json": components["schemas"]["WebhookRecoverRequest"];
                /**
                 * @example {
                 *       "since": "2026-11-22T00:00:00Z"
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["WebhookRecoverRequest"];
                /**
                 * @example {
                 *       "since": "2026-11-22T00:00:00Z"
                 *     }
                 */
                "multipart/form-data": components["schemas"]["WebhookRecoverRequest"];
            };
        };
        responses: {
            /** @description Accepted: `WebhookRecovered`. */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 12,
                     *       "since": "2026-11-22T00:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRecovered"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_replay_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "after_sequence": 8120,
                 *       "types": [
                 *         "inquiry.updated"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["WebhookReplayRequest"];
                /**
                 * @example {
                 *       "after_sequence": 8120,
                 *       "types": [
                 *         "inquiry.updated"
                 *       ]
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["WebhookReplayRequest"];
                /**
                 * @example {
                 *       "after_sequence": 8120,
                 *       "types": [
                 *         "inquiry.updated"
                 *       ]
                 *     }
                 */
                "multipart/form-data": components["schemas"]["WebhookReplayRequest"];
            };
        };
        responses: {
            /** @description Accepted: `WebhookReplayed`. */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "count": 240,
                     *       "next_after_sequence": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookReplayed"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_resume: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A URL that receives the business’s events by HTTP POST, signed as Standard Webhooks sign them. */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 7,
                     *       "url": "https://hooks.example.com/bizapi",
                     *       "eventTypes": [
                     *         "inquiry.created",
                     *         "inquiry.updated"
                     *       ],
                     *       "description": "CRM sync",
                     *       "isActive": true,
                     *       "format": "standard",
                     *       "isParked": false,
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_rotate_secret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `WebhookSecret`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    webhook_test: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: `WebhookDelivery`. */
            202: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 311,
                     *       "event": {
                     *         "id": 9002,
                     *         "type": "webhook.test"
                     *       },
                     *       "status": "pending",
                     *       "attempts": 0,
                     *       "lastStatusCode": null,
                     *       "lastError": null,
                     *       "lastAttemptAt": null,
                     *       "nextAttemptAt": "2026-11-22T05:31:56.123Z",
                     *       "created": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    worker_list: {
        parameters: {
            query?: {
                /** @description Position from the `next` or `previous` link of a page. */
                cursor?: string;
                /** @description `true` or `false` (`1` / `0` also accepted). */
                is_hidden?: boolean;
                /** @description Alias of `page_size` (the name the spec uses). */
                limit?: number;
                /** @description Items per page: default 20, larger values are clamped to 100. */
                page_size?: number;
                position_id?: number;
                /** @description Case-insensitive substring; repeat the parameter to require several terms (AND). */
                search?: string[];
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_end?: string;
                /** @description YYYY-MM-DD (the whole day in the business time zone) or a date-time with an offset; inclusive. Examples: `2026-11-26`, `2026-11-26T09:30:00+09:00`. */
                updated_start?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `PaginatedWorkerListItemList`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "next": "https://api.example.com/v1/worker?page_size=20&cursor=WzAsIjIwMjYtMTEtMjJUMDU6MzE6NTYuMTIzWiIsNDJd.c2lnbmF0dXJl",
                     *       "previous": null,
                     *       "results": [
                     *         {
                     *           "id": 12,
                     *           "name": "Choi Minho",
                     *           "created": "2026-11-22T05:31:56.123Z",
                     *           "position": {
                     *             "id": 1,
                     *             "title": "Developer",
                     *             "symbolColor": "#2f80ed"
                     *           },
                     *           "order": 1,
                     *           "isHidden": false,
                     *           "manMonthAmount": 6500000
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PaginatedWorkerListItemList"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    worker_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Choi Minho",
                 *       "position": {
                 *         "id": 1
                 *       },
                 *       "order": 1,
                 *       "manMonthAmount": 6500000
                 *     }
                 */
                "application/json": components["schemas"]["WorkerRequest"];
                /**
                 * @example {
                 *       "name": "Choi Minho",
                 *       "position": {
                 *         "id": 1
                 *       },
                 *       "order": 1,
                 *       "manMonthAmount": 6500000
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["WorkerRequest"];
                /**
                 * @example {
                 *       "name": "Choi Minho",
                 *       "position": {
                 *         "id": 1
                 *       },
                 *       "order": 1,
                 *       "manMonthAmount": 6500000
                 *     }
                 */
                "multipart/form-data": components["schemas"]["WorkerRequest"];
            };
        };
        responses: {
            /** @description Created: `WorkerListItem`. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "name": "Choi Minho",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "position": {
                     *         "id": 1,
                     *         "title": "Developer",
                     *         "symbolColor": "#2f80ed"
                     *       },
                     *       "order": 1,
                     *       "isHidden": false,
                     *       "manMonthAmount": 6500000
                     *     }
                     */
                    "application/json": components["schemas"]["WorkerListItem"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    worker_retrieve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                worker_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: `Worker`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "name": "Choi Minho",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "position": {
                     *         "id": 1,
                     *         "title": "Developer",
                     *         "symbolColor": "#2f80ed"
                     *       },
                     *       "order": 1,
                     *       "isHidden": false,
                     *       "manMonthAmount": 6500000,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Worker"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["Throttled"];
        };
    };
    worker_destroy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                worker_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
    worker_partial_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first request with this key runs and its answer is kept for 24 hours; the same key with the same method, path and body gets that answer again (with `Idempotent-Replayed: true`) and runs nothing. 1..255 printable ASCII characters, unique per business. */
                "Idempotency-Key"?: string;
            };
            path: {
                worker_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "position": {
                 *         "id": 2
                 *       },
                 *       "manMonthAmount": 7000000
                 *     }
                 */
                "application/json": components["schemas"]["PatchedWorkerRequest"];
                /**
                 * @example {
                 *       "position": {
                 *         "id": 2
                 *       },
                 *       "manMonthAmount": 7000000
                 *     }
                 */
                "application/x-www-form-urlencoded": components["schemas"]["PatchedWorkerRequest"];
                /**
                 * @example {
                 *       "position": {
                 *         "id": 2
                 *       },
                 *       "manMonthAmount": 7000000
                 *     }
                 */
                "multipart/form-data": components["schemas"]["PatchedWorkerRequest"];
            };
        };
        responses: {
            /** @description OK: `Worker`. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": 12,
                     *       "name": "Choi Minho",
                     *       "created": "2026-11-22T05:31:56.123Z",
                     *       "position": {
                     *         "id": 1,
                     *         "title": "Developer",
                     *         "symbolColor": "#2f80ed"
                     *       },
                     *       "order": 1,
                     *       "isHidden": false,
                     *       "manMonthAmount": 6500000,
                     *       "updated": "2026-11-22T05:31:56.123Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Worker"];
                };
            };
            400: components["responses"]["ValidationError"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["PermissionDenied"];
            404: components["responses"]["NotFound"];
            /** @description A request with the same `Idempotency-Key` is still running (`idempotency_key_in_progress`); `Retry-After: 1`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description The `Idempotency-Key` was used with another method, path or body (`idempotency_key_reused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            429: components["responses"]["Throttled"];
        };
    };
}
