// @bizapi/mcp, built by scripts/build.mjs from src/ and @bizapi/client (bundled by esbuild). Do not edit.

// src/cli.ts
import fs2 from "node:fs";
import { parseArgs } from "node:util";

// ../node_modules/openapi-fetch/dist/index.mjs
var PATH_PARAM_RE = /\{[^{}]+\}/g;
var supportsRequestInitExt = () => {
  return typeof process === "object" && Number.parseInt(process?.versions?.node?.substring(0, 2)) >= 18 && process.versions.undici;
};
function randomID() {
  return Math.random().toString(36).slice(2, 11);
}
function createClient(clientOptions) {
  let {
    baseUrl = "",
    Request: CustomRequest = globalThis.Request,
    fetch: baseFetch = globalThis.fetch,
    querySerializer: globalQuerySerializer,
    bodySerializer: globalBodySerializer,
    pathSerializer: globalPathSerializer,
    headers: baseHeaders,
    requestInitExt = void 0,
    ...baseOptions
  } = { ...clientOptions };
  requestInitExt = supportsRequestInitExt() ? requestInitExt : void 0;
  baseUrl = removeTrailingSlash(baseUrl);
  const globalMiddlewares = [];
  async function coreFetch(schemaPath, fetchOptions) {
    const {
      baseUrl: localBaseUrl,
      fetch = baseFetch,
      Request: Request2 = CustomRequest,
      headers,
      params = {},
      parseAs = "json",
      querySerializer: requestQuerySerializer,
      bodySerializer = globalBodySerializer ?? defaultBodySerializer,
      pathSerializer: requestPathSerializer,
      body,
      middleware: requestMiddlewares = [],
      ...init
    } = fetchOptions || {};
    let finalBaseUrl = baseUrl;
    if (localBaseUrl) {
      finalBaseUrl = removeTrailingSlash(localBaseUrl) ?? baseUrl;
    }
    let querySerializer = typeof globalQuerySerializer === "function" ? globalQuerySerializer : createQuerySerializer(globalQuerySerializer);
    if (requestQuerySerializer) {
      querySerializer = typeof requestQuerySerializer === "function" ? requestQuerySerializer : createQuerySerializer({
        ...typeof globalQuerySerializer === "object" ? globalQuerySerializer : {},
        ...requestQuerySerializer
      });
    }
    const pathSerializer = requestPathSerializer || globalPathSerializer || defaultPathSerializer;
    const serializedBody = body === void 0 ? void 0 : bodySerializer(
      body,
      // Note: we declare mergeHeaders() both here and below because it’s a bit of a chicken-or-egg situation:
      // bodySerializer() needs all headers so we aren’t dropping ones set by the user, however,
      // the result of this ALSO sets the lowest-priority content-type header. So we re-merge below,
      // setting the content-type at the very beginning to be overwritten.
      // Lastly, based on the way headers work, it’s not a simple “present-or-not” check becauase null intentionally un-sets headers.
      mergeHeaders(baseHeaders, headers, params.header)
    );
    const finalHeaders = mergeHeaders(
      // with no body, we should not to set Content-Type
      serializedBody === void 0 || // if serialized body is FormData; browser will correctly set Content-Type & boundary expression
      serializedBody instanceof FormData ? {} : {
        "Content-Type": "application/json"
      },
      baseHeaders,
      headers,
      params.header
    );
    const finalMiddlewares = [...globalMiddlewares, ...requestMiddlewares];
    const requestInit = {
      redirect: "follow",
      ...baseOptions,
      ...init,
      body: serializedBody,
      headers: finalHeaders
    };
    let id;
    let options;
    let request = new Request2(
      createFinalURL(schemaPath, { baseUrl: finalBaseUrl, params, querySerializer, pathSerializer }),
      requestInit
    );
    let response;
    for (const key in init) {
      if (!(key in request)) {
        request[key] = init[key];
      }
    }
    if (finalMiddlewares.length) {
      id = randomID();
      options = Object.freeze({
        baseUrl: finalBaseUrl,
        fetch,
        parseAs,
        querySerializer,
        bodySerializer,
        pathSerializer
      });
      for (const m of finalMiddlewares) {
        if (m && typeof m === "object" && typeof m.onRequest === "function") {
          const result = await m.onRequest({
            request,
            schemaPath,
            params,
            options,
            id
          });
          if (result) {
            if (result instanceof Request2) {
              request = result;
            } else if (result instanceof Response) {
              response = result;
              break;
            } else {
              throw new Error("onRequest: must return new Request() or Response() when modifying the request");
            }
          }
        }
      }
    }
    if (!response) {
      try {
        response = await fetch(request, requestInitExt);
      } catch (error2) {
        let errorAfterMiddleware = error2;
        if (finalMiddlewares.length) {
          for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
            const m = finalMiddlewares[i];
            if (m && typeof m === "object" && typeof m.onError === "function") {
              const result = await m.onError({
                request,
                error: errorAfterMiddleware,
                schemaPath,
                params,
                options,
                id
              });
              if (result) {
                if (result instanceof Response) {
                  errorAfterMiddleware = void 0;
                  response = result;
                  break;
                }
                if (result instanceof Error) {
                  errorAfterMiddleware = result;
                  continue;
                }
                throw new Error("onError: must return new Response() or instance of Error");
              }
            }
          }
        }
        if (errorAfterMiddleware) {
          throw errorAfterMiddleware;
        }
      }
      if (finalMiddlewares.length) {
        for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
          const m = finalMiddlewares[i];
          if (m && typeof m === "object" && typeof m.onResponse === "function") {
            const result = await m.onResponse({
              request,
              response,
              schemaPath,
              params,
              options,
              id
            });
            if (result) {
              if (!(result instanceof Response)) {
                throw new Error("onResponse: must return new Response() when modifying the response");
              }
              response = result;
            }
          }
        }
      }
    }
    const contentLength = response.headers.get("Content-Length");
    if (response.status === 204 || request.method === "HEAD" || contentLength === "0" && !response.headers.get("Transfer-Encoding")?.includes("chunked")) {
      return response.ok ? { data: void 0, response } : { error: void 0, response };
    }
    if (response.ok) {
      const getResponseData = async () => {
        if (parseAs === "stream") {
          return response.body;
        }
        if (parseAs === "json" && !contentLength) {
          const raw = await response.text();
          return raw ? JSON.parse(raw) : void 0;
        }
        return await response[parseAs]();
      };
      return { data: await getResponseData(), response };
    }
    let error = await response.text();
    try {
      error = JSON.parse(error);
    } catch {
    }
    return { error, response };
  }
  return {
    request(method, url, init) {
      return coreFetch(url, { ...init, method: method.toUpperCase() });
    },
    /** Call a GET endpoint */
    GET(url, init) {
      return coreFetch(url, { ...init, method: "GET" });
    },
    /** Call a PUT endpoint */
    PUT(url, init) {
      return coreFetch(url, { ...init, method: "PUT" });
    },
    /** Call a POST endpoint */
    POST(url, init) {
      return coreFetch(url, { ...init, method: "POST" });
    },
    /** Call a DELETE endpoint */
    DELETE(url, init) {
      return coreFetch(url, { ...init, method: "DELETE" });
    },
    /** Call a OPTIONS endpoint */
    OPTIONS(url, init) {
      return coreFetch(url, { ...init, method: "OPTIONS" });
    },
    /** Call a HEAD endpoint */
    HEAD(url, init) {
      return coreFetch(url, { ...init, method: "HEAD" });
    },
    /** Call a PATCH endpoint */
    PATCH(url, init) {
      return coreFetch(url, { ...init, method: "PATCH" });
    },
    /** Call a TRACE endpoint */
    TRACE(url, init) {
      return coreFetch(url, { ...init, method: "TRACE" });
    },
    /** Register middleware */
    use(...middleware) {
      for (const m of middleware) {
        if (!m) {
          continue;
        }
        if (typeof m !== "object" || !("onRequest" in m || "onResponse" in m || "onError" in m)) {
          throw new Error("Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`");
        }
        globalMiddlewares.push(m);
      }
    },
    /** Unregister middleware */
    eject(...middleware) {
      for (const m of middleware) {
        const i = globalMiddlewares.indexOf(m);
        if (i !== -1) {
          globalMiddlewares.splice(i, 1);
        }
      }
    }
  };
}
function serializePrimitiveParam(name, value, options) {
  if (value === void 0 || value === null) {
    return "";
  }
  if (typeof value === "object") {
    throw new Error(
      "Deeply-nested arrays/objects aren\u2019t supported. Provide your own `querySerializer()` to handle these."
    );
  }
  return `${name}=${options?.allowReserved === true ? value : encodeURIComponent(value)}`;
}
function serializeObjectParam(name, value, options) {
  if (!value || typeof value !== "object") {
    return "";
  }
  const values = [];
  const joiner = {
    simple: ",",
    label: ".",
    matrix: ";"
  }[options.style] || "&";
  if (options.style !== "deepObject" && options.explode === false) {
    for (const k in value) {
      values.push(k, options.allowReserved === true ? value[k] : encodeURIComponent(value[k]));
    }
    const final2 = values.join(",");
    switch (options.style) {
      case "form": {
        return `${name}=${final2}`;
      }
      case "label": {
        return `.${final2}`;
      }
      case "matrix": {
        return `;${name}=${final2}`;
      }
      default: {
        return final2;
      }
    }
  }
  for (const k in value) {
    const finalName = options.style === "deepObject" ? `${name}[${k}]` : k;
    values.push(serializePrimitiveParam(finalName, value[k], options));
  }
  const final = values.join(joiner);
  return options.style === "label" || options.style === "matrix" ? `${joiner}${final}` : final;
}
function serializeArrayParam(name, value, options) {
  if (!Array.isArray(value)) {
    return "";
  }
  if (options.explode === false) {
    const joiner2 = { form: ",", spaceDelimited: "%20", pipeDelimited: "|" }[options.style] || ",";
    const final = (options.allowReserved === true ? value : value.map((v) => encodeURIComponent(v))).join(joiner2);
    switch (options.style) {
      case "simple": {
        return final;
      }
      case "label": {
        return `.${final}`;
      }
      case "matrix": {
        return `;${name}=${final}`;
      }
      // case "spaceDelimited":
      // case "pipeDelimited":
      default: {
        return `${name}=${final}`;
      }
    }
  }
  const joiner = { simple: ",", label: ".", matrix: ";" }[options.style] || "&";
  const values = [];
  for (const v of value) {
    if (options.style === "simple" || options.style === "label") {
      values.push(options.allowReserved === true ? v : encodeURIComponent(v));
    } else {
      values.push(serializePrimitiveParam(name, v, options));
    }
  }
  return options.style === "label" || options.style === "matrix" ? `${joiner}${values.join(joiner)}` : values.join(joiner);
}
function createQuerySerializer(options) {
  return function querySerializer(queryParams) {
    const search = [];
    if (queryParams && typeof queryParams === "object") {
      for (const name in queryParams) {
        const value = queryParams[name];
        if (value === void 0 || value === null) {
          continue;
        }
        if (Array.isArray(value)) {
          if (value.length === 0) {
            continue;
          }
          search.push(
            serializeArrayParam(name, value, {
              style: "form",
              explode: true,
              ...options?.array,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        if (typeof value === "object") {
          search.push(
            serializeObjectParam(name, value, {
              style: "deepObject",
              explode: true,
              ...options?.object,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        search.push(serializePrimitiveParam(name, value, options));
      }
    }
    return search.join("&");
  };
}
function defaultPathSerializer(pathname, pathParams) {
  let nextURL = pathname;
  for (const match of pathname.match(PATH_PARAM_RE) ?? []) {
    let name = match.substring(1, match.length - 1);
    let explode = false;
    let style = "simple";
    if (name.endsWith("*")) {
      explode = true;
      name = name.substring(0, name.length - 1);
    }
    if (name.startsWith(".")) {
      style = "label";
      name = name.substring(1);
    } else if (name.startsWith(";")) {
      style = "matrix";
      name = name.substring(1);
    }
    if (!pathParams || pathParams[name] === void 0 || pathParams[name] === null) {
      continue;
    }
    const value = pathParams[name];
    if (Array.isArray(value)) {
      nextURL = nextURL.replace(match, serializeArrayParam(name, value, { style, explode }));
      continue;
    }
    if (typeof value === "object") {
      nextURL = nextURL.replace(match, serializeObjectParam(name, value, { style, explode }));
      continue;
    }
    if (style === "matrix") {
      nextURL = nextURL.replace(match, `;${serializePrimitiveParam(name, value)}`);
      continue;
    }
    nextURL = nextURL.replace(match, style === "label" ? `.${encodeURIComponent(value)}` : encodeURIComponent(value));
  }
  return nextURL;
}
function defaultBodySerializer(body, headers) {
  if (body instanceof FormData) {
    return body;
  }
  if (headers) {
    const contentType = headers.get instanceof Function ? headers.get("Content-Type") ?? headers.get("content-type") : headers["Content-Type"] ?? headers["content-type"];
    if (contentType === "application/x-www-form-urlencoded") {
      return new URLSearchParams(body).toString();
    }
  }
  return JSON.stringify(body);
}
function createFinalURL(pathname, options) {
  let finalURL = `${options.baseUrl}${pathname}`;
  if (options.params?.path) {
    finalURL = options.pathSerializer(finalURL, options.params.path);
  }
  let search = options.querySerializer(options.params.query ?? {});
  if (search.startsWith("?")) {
    search = search.substring(1);
  }
  if (search) {
    finalURL += `?${search}`;
  }
  return finalURL;
}
function mergeHeaders(...allHeaders) {
  const finalHeaders = new Headers();
  for (const h of allHeaders) {
    if (!h || typeof h !== "object") {
      continue;
    }
    const iterator = h instanceof Headers ? h.entries() : Object.entries(h);
    for (const [k, v] of iterator) {
      if (v === null) {
        finalHeaders.delete(k);
      } else if (Array.isArray(v)) {
        for (const v2 of v) {
          finalHeaders.append(k, v2);
        }
      } else if (v !== void 0) {
        finalHeaders.set(k, v);
      }
    }
  }
  return finalHeaders;
}
function removeTrailingSlash(url) {
  if (url.endsWith("/")) {
    return url.substring(0, url.length - 1);
  }
  return url;
}

// ../sdk/src/errors.ts
function omitRequestId(body) {
  const { requestId: _omit, ...rest } = body;
  return rest;
}
function fieldMessages(body, prefix = "") {
  const line = (text) => prefix === "" ? text : `${prefix}: ${text}`;
  if (typeof body === "string") return [line(body)];
  if (Array.isArray(body)) {
    if (body.every((m) => typeof m === "string")) return body.length === 0 ? [] : [line(body.join(" "))];
    return body.flatMap((item, i) => fieldMessages(item, prefix === "" ? String(i) : `${prefix}.${i}`));
  }
  if (body !== null && typeof body === "object") {
    return Object.entries(body).flatMap(
      ([key, value]) => fieldMessages(value, prefix === "" ? key : `${prefix}.${key}`)
    );
  }
  return [];
}
var BizapiError = class _BizapiError extends Error {
  /** HTTP status. */
  status;
  /** The message (`detail`), or `"Invalid input."` for a validation field map. */
  detail;
  /**
   * Machine code: the body's `code` (`not_found`, `parse_error`, `throttled`, `signature_invalid`, …); `invalid`
   * for a 400 field map; `http_<status>` when the body is not the API's.
   */
  code;
  /** The field map of a 400 validation error (without `requestId`), else `undefined`. */
  fields;
  /** The request id (`requestId` of the body, else the `X-Request-Id` header). */
  requestId;
  /** The raw body (parsed JSON, or text). */
  body;
  /** The method and URL of the request. */
  request;
  constructor(status, body, request, requestIdHeader) {
    const b = body !== null && typeof body === "object" && !Array.isArray(body) ? body : void 0;
    const detail = typeof b?.detail === "string" ? b.detail : b !== void 0 && status === 400 ? "Invalid input." : `HTTP ${status}`;
    const fieldLines = b !== void 0 && typeof b.detail !== "string" && status === 400 ? fieldMessages(omitRequestId(b)) : [];
    super(`${request.method} ${request.url}: ${status} ${fieldLines.length > 0 ? fieldLines.join("; ") : detail}`);
    this.name = "BizapiError";
    this.status = status;
    this.detail = detail;
    this.body = body;
    this.request = request;
    this.requestId = typeof b?.requestId === "string" ? b.requestId : requestIdHeader ?? void 0;
    if (b !== void 0 && typeof b.detail !== "string" && status === 400) {
      this.fields = omitRequestId(b);
      this.code = "invalid";
    } else {
      this.fields = void 0;
      this.code = typeof b?.code === "string" ? b.code : `http_${status}`;
    }
  }
  /** Builds the error from a response (reads its body). */
  static async fromResponse(response, method) {
    const text = await response.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
    }
    return new _BizapiError(response.status, body, { method, url: response.url }, response.headers.get("x-request-id"));
  }
};
var BizapiNetworkError = class extends Error {
  constructor(message, cause) {
    super(message);
    this.cause = cause;
    this.name = "BizapiNetworkError";
  }
  cause;
};

// ../sdk/src/generated/operations.ts
var operations = {
  "client_create": { method: "post", path: "/v1/client" },
  "client_destroy": { method: "delete", path: "/v1/client/{client_id}" },
  "client_list": { method: "get", path: "/v1/client" },
  "client_partial_update": { method: "patch", path: "/v1/client/{client_id}" },
  "client_retrieve": { method: "get", path: "/v1/client/{client_id}" },
  "client_status_list": { method: "get", path: "/v1/client/status" },
  "contract_category_list": { method: "get", path: "/v1/contract/category" },
  "contract_create": { method: "post", path: "/v1/contract" },
  "contract_destroy": { method: "delete", path: "/v1/contract/{contract_id}" },
  "contract_history_create": { method: "post", path: "/v1/contract/{contract_id}/history" },
  "contract_history_destroy": { method: "delete", path: "/v1/contract/{contract_id}/history/{history_id}" },
  "contract_history_list": { method: "get", path: "/v1/contract/{contract_id}/history" },
  "contract_history_partial_update": { method: "patch", path: "/v1/contract/{contract_id}/history/{history_id}" },
  "contract_history_retrieve": { method: "get", path: "/v1/contract/{contract_id}/history/{history_id}" },
  "contract_list": { method: "get", path: "/v1/contract" },
  "contract_partial_update": { method: "patch", path: "/v1/contract/{contract_id}" },
  "contract_retrieve": { method: "get", path: "/v1/contract/{contract_id}" },
  "estimate_item_classification_list": { method: "get", path: "/v1/estimate/item/classification" },
  "estimate_item_create": { method: "post", path: "/v1/estimate/item" },
  "estimate_item_destroy": { method: "delete", path: "/v1/estimate/item/{item_id}" },
  "estimate_item_list": { method: "get", path: "/v1/estimate/item" },
  "estimate_item_partial_update": { method: "patch", path: "/v1/estimate/item/{item_id}" },
  "estimate_item_retrieve": { method: "get", path: "/v1/estimate/item/{item_id}" },
  "event_list": { method: "get", path: "/v1/event" },
  "event_retrieve": { method: "get", path: "/v1/event/{event_id}" },
  "event_stream_list": { method: "get", path: "/v1/event/stream" },
  "field_list": { method: "get", path: "/v1/field" },
  "files_retrieve": { method: "get", path: "/files/{business_id}/{object}" },
  "files_update": { method: "put", path: "/files/{business_id}/{object}" },
  "folder_list": { method: "get", path: "/v1/folder" },
  "healthz_retrieve": { method: "get", path: "/healthz" },
  "inquiry_create": { method: "post", path: "/v1/inquiry" },
  "inquiry_destroy": { method: "delete", path: "/v1/inquiry/{inquiry_id}" },
  "inquiry_email_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/email_history" },
  "inquiry_email_reply_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/email_reply_history" },
  "inquiry_file_destroy": { method: "delete", path: "/v1/inquiry/{inquiry_id}/file/{file_id}" },
  "inquiry_folder_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/folder_history" },
  "inquiry_history_create": { method: "post", path: "/v1/inquiry/{inquiry_id}/history" },
  "inquiry_history_destroy": { method: "delete", path: "/v1/inquiry/{inquiry_id}/history/{history_id}" },
  "inquiry_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/history" },
  "inquiry_history_partial_update": { method: "patch", path: "/v1/inquiry/{inquiry_id}/history/{history_id}" },
  "inquiry_history_retrieve": { method: "get", path: "/v1/inquiry/{inquiry_id}/history/{history_id}" },
  "inquiry_list": { method: "get", path: "/v1/inquiry" },
  "inquiry_partial_update": { method: "patch", path: "/v1/inquiry/{inquiry_id}" },
  "inquiry_retrieve": { method: "get", path: "/v1/inquiry/{inquiry_id}" },
  "inquiry_status_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/status_history" },
  "inquiry_status_list": { method: "get", path: "/v1/inquiry/status" },
  "inquiry_submit_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/submit_history" },
  "inquiry_text_history_create": { method: "post", path: "/v1/inquiry/{inquiry_id}/text_history" },
  "inquiry_text_history_destroy": { method: "delete", path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}" },
  "inquiry_text_history_list": { method: "get", path: "/v1/inquiry/{inquiry_id}/text_history" },
  "inquiry_text_history_partial_update": { method: "patch", path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}" },
  "inquiry_text_history_retrieve": { method: "get", path: "/v1/inquiry/{inquiry_id}/text_history/{history_id}" },
  "inquiry_work_list": { method: "get", path: "/v1/inquiry/work" },
  "log_list": { method: "get", path: "/v1/log/" },
  "member_list": { method: "get", path: "/v1/member" },
  "metrics_retrieve": { method: "get", path: "/metrics" },
  "notification_list": { method: "get", path: "/v1/notification" },
  "presigned_create": { method: "post", path: "/v1/presigned" },
  "project_create": { method: "post", path: "/v1/project" },
  "project_destroy": { method: "delete", path: "/v1/project/{project_id}" },
  "project_list": { method: "get", path: "/v1/project" },
  "project_partial_update": { method: "patch", path: "/v1/project/{project_id}" },
  "project_retrieve": { method: "get", path: "/v1/project/{project_id}" },
  "readyz_retrieve": { method: "get", path: "/readyz" },
  "root_retrieve": { method: "get", path: "/" },
  "settlement_create": { method: "post", path: "/v1/settlement" },
  "settlement_destroy": { method: "delete", path: "/v1/settlement/{settlement_id}" },
  "settlement_history_create": { method: "post", path: "/v1/settlement/{settlement_id}/history" },
  "settlement_history_destroy": { method: "delete", path: "/v1/settlement/{settlement_id}/history/{history_id}" },
  "settlement_history_list": { method: "get", path: "/v1/settlement/{settlement_id}/history" },
  "settlement_history_partial_update": { method: "patch", path: "/v1/settlement/{settlement_id}/history/{history_id}" },
  "settlement_history_retrieve": { method: "get", path: "/v1/settlement/{settlement_id}/history/{history_id}" },
  "settlement_list": { method: "get", path: "/v1/settlement" },
  "settlement_partial_update": { method: "patch", path: "/v1/settlement/{settlement_id}" },
  "settlement_retrieve": { method: "get", path: "/v1/settlement/{settlement_id}" },
  "settlement_status_history_list": { method: "get", path: "/v1/settlement/{settlement_id}/status_history" },
  "settlement_type_list": { method: "get", path: "/v1/settlement/type" },
  "todo_create": { method: "post", path: "/v1/todo" },
  "todo_destroy": { method: "delete", path: "/v1/todo/{todo_id}" },
  "todo_list": { method: "get", path: "/v1/todo" },
  "todo_partial_update": { method: "patch", path: "/v1/todo/{todo_id}" },
  "todo_retrieve": { method: "get", path: "/v1/todo/{todo_id}" },
  "webhook_create": { method: "post", path: "/v1/webhook" },
  "webhook_delivery_list": { method: "get", path: "/v1/webhook/{webhook_id}/delivery" },
  "webhook_delivery_retry": { method: "post", path: "/v1/webhook/{webhook_id}/delivery/{delivery_id}/retry" },
  "webhook_destroy": { method: "delete", path: "/v1/webhook/{webhook_id}" },
  "webhook_list": { method: "get", path: "/v1/webhook" },
  "webhook_partial_update": { method: "patch", path: "/v1/webhook/{webhook_id}" },
  "webhook_recover_create": { method: "post", path: "/v1/webhook/{webhook_id}/recover" },
  "webhook_replay_create": { method: "post", path: "/v1/webhook/{webhook_id}/replay" },
  "webhook_resume": { method: "post", path: "/v1/webhook/{webhook_id}/resume" },
  "webhook_retrieve": { method: "get", path: "/v1/webhook/{webhook_id}" },
  "webhook_rotate_secret": { method: "post", path: "/v1/webhook/{webhook_id}/rotate_secret" },
  "webhook_test": { method: "post", path: "/v1/webhook/{webhook_id}/test" },
  "worker_create": { method: "post", path: "/v1/worker" },
  "worker_destroy": { method: "delete", path: "/v1/worker/{worker_id}" },
  "worker_list": { method: "get", path: "/v1/worker" },
  "worker_partial_update": { method: "patch", path: "/v1/worker/{worker_id}" },
  "worker_retrieve": { method: "get", path: "/v1/worker/{worker_id}" }
};

// ../sdk/src/signing.ts
var encoder = new TextEncoder();
function toHex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
var webCryptoHmac = async (key, message) => {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === void 0)
    throw new Error(
      "Web Crypto (crypto.subtle) is not available here (browsers offer it only on https:// and localhost)."
    );
  const k = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toHex(new Uint8Array(await subtle.sign("HMAC", k, message)));
};
var nodeCryptoHmac = async (key, message) => {
  const { createHmac } = await import("node:crypto");
  return createHmac("sha256", key).update(message).digest("hex");
};
function defaultHmac() {
  const isNode = typeof process !== "undefined" && typeof process.versions?.node === "string";
  return isNode ? nodeCryptoHmac : webCryptoHmac;
}
async function signRequest(input, options) {
  const hmac = options.hmac ?? defaultHmac();
  const key = encoder.encode(options.secretKey);
  const body = input.body === void 0 ? new Uint8Array(0) : typeof input.body === "string" ? encoder.encode(input.body) : input.body;
  if ((options.version ?? "v1") === "v1") return { "X-Signature": await hmac(key, body) };
  const ts = String(options.timestamp ?? Math.floor(Date.now() / 1e3));
  const prefix = encoder.encode(`${ts}.${input.method.toUpperCase()}.${input.pathAndQuery}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  return { "X-Signature-Timestamp": ts, "X-Signature": `v2=${await hmac(key, message)}` };
}

// ../sdk/src/client.ts
var IDEMPOTENT_UNSAFE = /* @__PURE__ */ new Set(["POST", "PATCH", "DELETE"]);
var sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      reject(signal.reason);
    },
    { once: true }
  );
});
function retryAfterMs(value, now = Date.now()) {
  if (value === null || value.trim() === "") return void 0;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1e3;
  const date = Date.parse(value);
  return Number.isNaN(date) ? void 0 : Math.max(0, date - now);
}
var sentV2 = /* @__PURE__ */ new Map();
var MAX_RESIGN = 30;
function createBizapi(options) {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const retries = options.retry?.retries ?? 3;
  const baseDelay = options.retry?.baseDelayMs ?? 250;
  const maxDelay = options.retry?.maxDelayMs ?? 8e3;
  const maxRetryAfter = options.retry?.maxRetryAfterMs ?? 6e4;
  const backoff = (attempt) => Math.min(maxDelay, baseDelay * 2 ** attempt) * (0.5 + Math.random() / 2);
  const auto = (options.signatureVersion ?? "auto") === "auto";
  let version = options.signatureVersion === "v2" ? "v2" : "v1";
  async function sign(method, pathAndQuery, body) {
    const base = { secretKey: options.secretKey, version, hmac: options.hmac };
    if (version === "v1") return signRequest({ method, pathAndQuery, body }, base);
    const now = Math.floor(Date.now() / 1e3);
    for (const [sig, ts] of sentV2) if (ts < now - 300) sentV2.delete(sig);
    for (let ts = now; ; ts++) {
      const headers = await signRequest({ method, pathAndQuery, body }, { ...base, timestamp: ts });
      const sig = headers["X-Signature"];
      if (!sentV2.has(sig)) {
        sentV2.set(sig, ts);
        return headers;
      }
    }
  }
  async function signedFetch(input, init, maxRetries = retries) {
    const request = new Request(input, init);
    const method = request.method.toUpperCase();
    const body = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    const idempotencyKey = request.headers.get("idempotency-key") ?? (IDEMPOTENT_UNSAFE.has(method) ? globalThis.crypto.randomUUID() : void 0);
    let resigned = 0;
    for (let attempt = 0; ; attempt++) {
      const url = new URL(request.url);
      const headers = new Headers(request.headers);
      for (const [k, v] of Object.entries(options.headers ?? {})) headers.set(k, v);
      headers.set("X-API-Key", options.apiKey);
      const signature = await sign(method, `${url.pathname}${url.search}`, body);
      for (const [k, v] of Object.entries(signature)) headers.set(k, v);
      if (idempotencyKey !== void 0) headers.set("Idempotency-Key", idempotencyKey);
      let response;
      try {
        response = await baseFetch(url, {
          method,
          headers,
          body: body.length > 0 ? body : null,
          signal: request.signal
        });
      } catch (err) {
        if (request.signal.aborted) throw err;
        if (attempt >= maxRetries)
          throw new BizapiNetworkError(`${method} ${url.href}: ${err.message}`, err);
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      const resignV2 = response.status === 403 && version === "v2" && resigned < MAX_RESIGN;
      const upgrade = response.status === 403 && version === "v1" && auto;
      if (resignV2 || upgrade) {
        const code = await response.clone().json().then(
          (b) => b?.code,
          () => void 0
        );
        if (resignV2 && code === "signature_replayed" || upgrade && code === "signature_required") {
          await response.body?.cancel();
          if (upgrade) version = "v2";
          else resigned++;
          attempt--;
          continue;
        }
      }
      const retryable = response.status === 429 || response.status === 503 || response.status === 409 && response.headers.has("retry-after");
      if (!retryable || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get("retry-after"));
      if (wait !== void 0 && wait > maxRetryAfter) return response;
      await response.body?.cancel();
      await sleep(wait ?? backoff(attempt), request.signal);
    }
  }
  const api = createClient({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: (request) => signedFetch(request)
  });
  async function call(operationId, init) {
    const op = operations[operationId];
    if (op === void 0) throw new TypeError(`unknown operationId "${String(operationId)}"`);
    const request = api.request;
    const { data, error, response } = await request(op.method, op.path, init);
    if (!response.ok) {
      throw new BizapiError(
        response.status,
        error,
        { method: op.method.toUpperCase(), url: response.url },
        response.headers.get("x-request-id")
      );
    }
    return data;
  }
  async function* paginate(operationId, init) {
    let page = await call(operationId, init);
    for (; ; ) {
      yield* page.results;
      if (typeof page.next !== "string" || page.next === "") return;
      const response = await signedFetch(page.next, {
        headers: { Accept: "application/json" },
        signal: init?.signal ?? null
      });
      if (!response.ok) throw await BizapiError.fromResponse(response, "GET");
      page = await response.json();
    }
  }
  async function* follow(o) {
    const { signal } = o;
    let after = o.afterSequence;
    const wait = o.wait ?? 30;
    const types = (o.types ?? []).map((t) => `&type=${encodeURIComponent(t)}`).join("");
    let failures = 0;
    const pause = (ms) => sleep(ms, signal).then(
      () => true,
      () => false
    );
    const root = options.baseUrl.replace(/\/+$/, "");
    while (!signal?.aborted) {
      const url = `${root}/v1/event?after_sequence=${after}&wait=${wait}${types}`;
      let page;
      try {
        const response = await signedFetch(url, { headers: { Accept: "application/json" }, signal: signal ?? null }, 0);
        if (response.status === 429 || response.status >= 500) {
          const retryAfter = retryAfterMs(response.headers.get("retry-after"));
          await response.body?.cancel();
          if (!await pause(retryAfter ?? backoff(failures++))) return;
          continue;
        }
        if (!response.ok) throw await BizapiError.fromResponse(response, "GET");
        page = await response.json();
      } catch (err) {
        if (signal?.aborted) return;
        if (err instanceof BizapiError) throw err;
        if (!await pause(backoff(failures++))) return;
        continue;
      }
      failures = 0;
      for (const event of page.results) {
        if (event.sequence <= after) continue;
        after = event.sequence;
        yield event;
        if (signal?.aborted) return;
      }
    }
  }
  return { api, call, paginate, fetch: signedFetch, events: { follow } };
}

// ../sdk/src/webhooks.ts
var encoder2 = new TextEncoder();

// src/server.ts
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js";

// src/tools.ts
var METHODS = ["get", "post", "patch", "put", "delete"];
var NON_SCHEMA_KEYWORDS = /* @__PURE__ */ new Set([
  "example",
  "discriminator",
  "xml",
  "externalDocs",
  "nullable",
  "readOnly",
  "writeOnly"
]);
function firstSentence(text) {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? "";
  const match = /^([\s\S]*?[.!?])(\s|$)/.exec(paragraph);
  return (match ? match[1] : paragraph).replace(/\s+/g, " ").trim();
}
function resolvePointer(root, ref) {
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return void 0;
    node = node[part];
  }
  return node;
}
var SchemaInliner = class {
  constructor(document) {
    this.document = document;
  }
  document;
  /** Recursive shapes met so far: `$defs` name → inlined schema. */
  defs = {};
  /**
   * A self-contained copy of `schema`.
   * @throws Error on a `$ref` to nothing or a non-local `$ref`
   */
  inline(schema, stack = []) {
    if (Array.isArray(schema)) return schema.map((s) => this.inline(s, stack));
    if (schema === null || typeof schema !== "object") return schema;
    const { $ref, ...rest } = schema;
    let out = {};
    if (typeof $ref === "string") {
      if (!$ref.startsWith("#/")) throw new Error(`unsupported $ref "${$ref}" (only local references are inlined)`);
      const name = $ref.split("/").pop().replace(/[^A-Za-z0-9_.-]/g, "_");
      if (stack.includes($ref)) {
        if (!(name in this.defs)) {
          this.defs[name] = {};
          this.defs[name] = this.inline(resolvePointer(this.document, $ref), stack);
        }
        out.$ref = `#/$defs/${name}`;
      } else {
        const target = resolvePointer(this.document, $ref);
        if (target === void 0) throw new Error(`$ref to nothing: ${$ref}`);
        out = { ...this.inline(target, [...stack, $ref]) };
      }
    }
    for (const [key, value] of Object.entries(rest)) {
      if (key.startsWith("x-") || NON_SCHEMA_KEYWORDS.has(key)) continue;
      if (key === "examples" && !Array.isArray(value)) continue;
      out[key] = key === "properties" || key === "patternProperties" || key === "$defs" || key === "dependentSchemas" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.inline(v, stack)])) : key === "enum" || key === "const" || key === "default" || key === "examples" || key === "required" ? value : this.inline(value, stack);
    }
    return out;
  }
};
function requestBodyOf(document, operation) {
  let rb = operation.requestBody;
  if (rb !== void 0 && typeof rb.$ref === "string") rb = resolvePointer(document, rb.$ref);
  const content = rb?.content;
  if (content === void 0) return void 0;
  const json = content["application/json"] ?? Object.entries(content).find(([type]) => /json/.test(type))?.[1];
  if (json === void 0) return void 0;
  return { schema: json.schema ?? {}, required: rb?.required === true };
}
function isPaged(document, operation) {
  const responses = operation.responses ?? {};
  const ok = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status))?.[1];
  let schema = ok?.content?.["application/json"]?.schema;
  for (let i = 0; schema !== void 0 && typeof schema.$ref === "string" && i < 10; i++)
    schema = resolvePointer(document, schema.$ref);
  const properties = schema?.properties;
  return properties !== void 0 && "results" in properties && "next" in properties;
}
var PAGING_NOTE = "Paged: the answer is {results, nextCursor}; pass nextCursor back as `cursor` (with the same other arguments) for the next page, until it is null.";
var CURSOR_DESCRIPTION = "The `nextCursor` of the previous page (a token, not a URL). Omit for the first page.";
function isStream(operation) {
  const ok = operation.responses?.["200"];
  const types = Object.keys(ok?.content ?? {});
  return types.length > 0 && types.every((type) => type === "text/event-stream");
}
function buildOperationTools(document) {
  const paths = document?.paths ?? {};
  const tools = [];
  const seen = /* @__PURE__ */ new Set();
  for (const [path, item] of Object.entries(paths)) {
    if (!/^\/v1(\/|$)/.test(path)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === void 0) continue;
      if (isStream(operation)) continue;
      const name = operation.operationId;
      if (typeof name !== "string" || name === "")
        throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      if (seen.has(name)) throw new Error(`operationId "${name}" is used twice`);
      seen.add(name);
      const inliner = new SchemaInliner(document);
      const properties = {};
      const required = [];
      const parameters = [];
      const rawParameters = [
        ...item.parameters ?? [],
        ...operation.parameters ?? []
      ];
      for (const raw of rawParameters) {
        const p = typeof raw.$ref === "string" ? resolvePointer(document, raw.$ref) : raw;
        if (p.in !== "path" && p.in !== "query") continue;
        if (p.name === "body" || p.name in properties)
          throw new Error(`${name}: parameter "${p.name}" clashes with another argument`);
        const schema = { ...inliner.inline(p.schema ?? {}) };
        if (p.name === "cursor") schema.description = CURSOR_DESCRIPTION;
        else if (p.description !== void 0 && schema.description === void 0) schema.description = p.description;
        properties[p.name] = schema;
        const isRequired = p.in === "path" || p.required === true;
        if (isRequired) required.push(p.name);
        parameters.push({ name: p.name, in: p.in, required: isRequired, repeated: schema.type === "array", schema });
      }
      const rb = requestBodyOf(document, operation);
      if (rb !== void 0) {
        properties.body = { ...inliner.inline(rb.schema) };
        if (properties.body.description === void 0) properties.body.description = "The request body (JSON).";
        if (rb.required) required.push("body");
      }
      const inputSchema = { type: "object", properties, additionalProperties: false };
      if (required.length > 0) inputSchema.required = required;
      if (Object.keys(inliner.defs).length > 0) inputSchema.$defs = inliner.defs;
      const summary = typeof operation.summary === "string" ? operation.summary.trim() : "";
      const fullDescription = typeof operation.description === "string" ? operation.description : "";
      const paged = isPaged(document, operation) && "cursor" in properties;
      const first = firstSentence(fullDescription);
      const description = [
        summary && !/[.!?]$/.test(summary) ? `${summary}.` : summary,
        first && first !== summary ? first : "",
        paged ? PAGING_NOTE : ""
      ].filter((s) => s !== "").join(" ");
      const upper = method.toUpperCase();
      const annotations = {
        ...summary !== "" && { title: summary },
        readOnlyHint: upper === "GET",
        ...upper !== "GET" && { destructiveHint: upper === "DELETE" },
        idempotentHint: upper === "GET" || upper === "PATCH" || upper === "PUT" || upper === "DELETE",
        openWorldHint: false
      };
      tools.push({
        name,
        method: upper,
        path,
        summary,
        description,
        fullDescription,
        inputSchema,
        parameters,
        body: rb === void 0 ? "none" : rb.required ? "required" : "optional",
        paged,
        annotations
      });
    }
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

// src/server.ts
var McpConfigError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "McpConfigError";
  }
};
var REMEMBERED_CURSORS = 1e3;
var INSTRUCTIONS = [
  "Tools of the bizapi Business Management API (inquiries, clients, contracts, settlements, projects, workers, todos, estimate items).",
  "Each API operation has an operation id: <resource>_list, _retrieve, _create, _partial_update, _destroy.",
  "Path and query parameters are top-level arguments; a request body goes under `body`.",
  "Lists answer {results, nextCursor}: pass nextCursor back as `cursor` for the next page until it is null; `fields` keeps only the named fields of each record.",
  "A failed call is a tool error naming the HTTP status, the error code and each field message: correct the arguments and call again."
].join(" ");
var MAX_RESULT_CHARS = 8e4;
var FIELDS_SCHEMA = {
  type: "array",
  items: { type: "string" },
  description: 'Keep only these top-level fields of the answer (of each record of a list), e.g. ["id", "companyName"].'
};
var STATELESS_CURSOR = "mc1.";
function selectOperations(all, options) {
  const extensionNames = /* @__PURE__ */ new Set();
  if (options.extensions === false) {
    const paths = options.document?.paths ?? {};
    for (const item of Object.values(paths))
      for (const op of Object.values(item))
        if (op?.["x-extension"] === true && typeof op.operationId === "string") extensionNames.add(op.operationId);
  }
  let selected = all.filter((t) => !extensionNames.has(t.name));
  if (options.tools !== void 0) {
    const byName = new Map(all.map((t) => [t.name, t]));
    const unknown = options.tools.filter((n) => !byName.has(n));
    if (unknown.length > 0)
      throw new McpConfigError(
        `--tools: unknown operation${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")} (the operation ids are listed in docs/mcp.md#tools and by \`bizapi openapi\`)`
      );
    if (options.readOnly === true) {
      const writes = options.tools.filter((n) => byName.get(n).method !== "GET");
      if (writes.length > 0)
        throw new McpConfigError(`--tools names write operations under --read-only: ${writes.join(", ")}`);
    }
    const wanted = new Set(options.tools);
    selected = selected.filter((t) => wanted.has(t.name));
  }
  if (options.readOnly === true) selected = selected.filter((t) => t.method === "GET");
  return selected;
}
function fieldMessages2(body, prefix = "") {
  if (typeof body === "string") return [prefix === "" ? body : `${prefix}: ${body}`];
  if (Array.isArray(body)) {
    if (body.every((m) => typeof m === "string"))
      return body.length === 0 ? [] : [prefix === "" ? body.join(" ") : `${prefix}: ${body.join(" ")}`];
    return body.flatMap((item, i) => fieldMessages2(item, prefix === "" ? String(i) : `${prefix}.${i}`));
  }
  if (body !== null && typeof body === "object") {
    return Object.entries(body).flatMap(
      ([key, value]) => fieldMessages2(value, prefix === "" ? key : `${prefix}.${key}`)
    );
  }
  return [];
}
function toolError(text, structured) {
  return {
    isError: true,
    content: [{ type: "text", text }],
    ...structured !== void 0 && { structuredContent: structured }
  };
}
function toolResult(structured) {
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}
function hintFor(status, code, detail) {
  if (status === 401) return "The API key was refused: check BIZAPI_API_KEY in the MCP server configuration.";
  if (code === "signature_invalid")
    return "The request signature was refused: check that BIZAPI_SECRET_KEY is the secret issued with BIZAPI_API_KEY.";
  if (code === "signature_required")
    return "The server requires another signature version: start `bizapi mcp` with --signature v2 (or v1 for the reference service).";
  if (code === "PLAN_PERMISSION_DENIED") return "The business plan does not allow this operation.";
  if (status === 404 && detail === "Invalid cursor")
    return "The cursor is not valid: start again from the first page (omit `cursor`).";
  if (status === 429) return "Rate limited: wait before calling again.";
  return void 0;
}
function errorResult(status, body) {
  const b = body !== null && typeof body === "object" && !Array.isArray(body) ? body : void 0;
  const code = typeof b?.code === "string" ? b.code : void 0;
  const detail = typeof b?.detail === "string" ? b.detail : void 0;
  let messages;
  if (b === void 0) messages = typeof body === "string" && body.trim() !== "" ? [body.trim().slice(0, 500)] : [];
  else {
    const { code: _c, requestId: _r, detail: _d, ...fields } = b;
    messages = [...detail !== void 0 ? [detail] : [], ...fieldMessages2(fields)];
  }
  const head = `status ${status}${code !== void 0 ? ` ${code}` : ""}`;
  const hint = hintFor(status, code, detail);
  const lines = [`${head}: ${messages.length > 0 ? messages.join("; ") : "no details"}`];
  if (hint !== void 0) lines.push(hint);
  if (b !== void 0) lines.push(JSON.stringify(b));
  return toolError(lines.join("\n"), b ?? { detail: typeof body === "string" ? body : `HTTP ${status}` });
}
function cursorOf(next) {
  if (typeof next !== "string" || next === "") return null;
  let url;
  try {
    url = new URL(next, "http://placeholder.invalid");
  } catch {
    return null;
  }
  const cursor = url.searchParams.get("cursor");
  if (cursor === null || cursor === "") return null;
  const query = new URLSearchParams(url.searchParams);
  query.delete("cursor");
  return { cursor, query };
}
function queryValue(name, value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new ArgumentError(
    `argument "${name}" must be a string, a number or a boolean (or a list of them), not ${JSON.stringify(value)}`
  );
}
function pathSegment(p, value) {
  const refuse = (what) => new ArgumentError(`argument "${p.name}" must be ${what}, not ${JSON.stringify(value)}`);
  const type = p.schema.type;
  let text;
  if (type === "integer" || type === "number") {
    const n = typeof value === "number" ? value : typeof value === "string" && /^-?[0-9]+$/.test(value) ? Number(value) : NaN;
    const min = typeof p.schema.minimum === "number" ? p.schema.minimum : void 0;
    const max = typeof p.schema.maximum === "number" ? p.schema.maximum : void 0;
    const range = min !== void 0 && max !== void 0 ? ` from ${min} to ${max}` : min !== void 0 ? ` of at least ${min}` : "";
    if (!Number.isSafeInteger(n) || min !== void 0 && n < min || max !== void 0 && n > max)
      throw refuse(`an integer id${range}`);
    text = String(n);
  } else {
    if (typeof value !== "string" && typeof value !== "number") throw refuse("a string");
    text = String(value);
    if (typeof p.schema.pattern === "string" && !new RegExp(p.schema.pattern, "u").test(text))
      throw refuse(`a string matching ${p.schema.pattern}`);
  }
  if (text === "" || text === "." || text === ".." || /[/\\%]/.test(text))
    throw refuse('one path segment (no "/", "\\", "%", "." or "..")');
  return text;
}
var ArgumentError = class extends Error {
};
function objectArgument(value) {
  if (typeof value !== "string" || !/^\s*\{/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
function pick(value, fields) {
  if (fields === void 0 || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, record[f]]));
}
function encodeCursor(cursor, query) {
  return STATELESS_CURSOR + Buffer.from(JSON.stringify({ c: cursor, q: query.toString() })).toString("base64url");
}
function decodeCursor(token) {
  try {
    const { c, q } = JSON.parse(Buffer.from(token.slice(STATELESS_CURSOR.length), "base64url").toString("utf8"));
    if (typeof c !== "string" || c === "" || typeof q !== "string") return void 0;
    return { cursor: c, query: new URLSearchParams(q) };
  } catch {
    return void 0;
  }
}
var OperationCaller = class {
  constructor(options) {
    this.options = options;
    this.client = createBizapi({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      secretKey: options.secretKey,
      signatureVersion: options.signature ?? "v1",
      ...options.retries !== void 0 && { retry: { retries: options.retries } },
      ...options.fetch !== void 0 && { fetch: options.fetch }
    });
  }
  options;
  client;
  /** `<tool> <cursor>` → the other query parameters of the page whose `next` carried that cursor. */
  cursors = /* @__PURE__ */ new Map();
  /** The URL of a call: the path template filled in, the query arguments (and, with a cursor, the filters of its page). */
  url(tool, args) {
    const accepted = /* @__PURE__ */ new Set([...tool.parameters.map((p) => p.name), ...tool.body !== "none" ? ["body"] : []]);
    const unknown = Object.keys(args).filter((k) => !accepted.has(k));
    if (unknown.length > 0) {
      const list = [...accepted].join(", ") || "none";
      throw new ArgumentError(
        `unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")}; ${tool.name} takes: ${list}${tool.body !== "none" ? " (the request fields go inside `body`)" : ""}`
      );
    }
    let path = tool.path;
    for (const p of tool.parameters) {
      const value = args[p.name];
      if (value === void 0 || value === null || value === "") {
        if (p.required) throw new ArgumentError(`missing required argument "${p.name}"`);
        continue;
      }
      if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(pathSegment(p, value)));
    }
    if (tool.body === "required" && args.body === void 0)
      throw new ArgumentError('missing required argument "body" (the request fields go inside `body`)');
    const base = this.options.baseUrl.replace(/\/+$/, "");
    const url = new URL(`${base}${path}`);
    if (url.pathname !== new URL(`${base}/`).pathname.replace(/\/$/, "") + path)
      throw new ArgumentError(`the path arguments do not make a path of ${tool.name} (${path})`);
    let cursor = args.cursor;
    if (tool.paged && typeof cursor === "string" && /^https?:\/\//i.test(cursor)) {
      const parsed = cursorOf(cursor);
      if (parsed !== null) {
        this.remember(tool.name, parsed.cursor, parsed.query);
        cursor = parsed.cursor;
      }
    }
    let carried;
    if (typeof cursor === "string" && cursor.startsWith(STATELESS_CURSOR)) {
      const decoded = decodeCursor(cursor);
      if (decoded === void 0)
        throw new ArgumentError(
          'argument "cursor" is not a nextCursor this server handed out: start again from the first page (omit `cursor`)'
        );
      cursor = decoded.cursor;
      carried = decoded.query;
    }
    const remembered = carried ?? (typeof cursor === "string" ? this.cursors.get(`${tool.name} ${cursor}`) : void 0);
    const query = new URLSearchParams(remembered);
    for (const p of tool.parameters) {
      if (p.in !== "query" || p.name === "cursor") continue;
      const value = args[p.name];
      if (value === void 0 || value === null) continue;
      query.delete(p.name);
      for (const v of Array.isArray(value) ? value : [value]) query.append(p.name, queryValue(p.name, v));
    }
    if (typeof cursor === "string" && cursor !== "") query.set("cursor", cursor);
    else if (cursor !== void 0 && cursor !== null && cursor !== "")
      throw new ArgumentError('argument "cursor" must be the nextCursor string of the previous page');
    url.search = query.toString();
    return url;
  }
  remember(tool, cursor, query) {
    const key = `${tool} ${cursor}`;
    this.cursors.delete(key);
    this.cursors.set(key, query);
    while (this.cursors.size > REMEMBERED_CURSORS) this.cursors.delete(this.cursors.keys().next().value);
  }
  /**
   * Calls `tool` with `args` (and `fields`, docs/mcp.md#result-sizes); every failure is a tool result with
   * `isError`, never a thrown error. A page whose result would pass {@link MAX_RESULT_CHARS} is fetched again
   * with a page size that fits (its `nextCursor` goes on from there); a record that does not fit is an error
   * that asks for `fields`.
   */
  async call(tool, rawArgs, signal) {
    const { fields: rawFields, ...args } = rawArgs;
    let fields;
    if (rawFields !== void 0 && rawFields !== null) {
      const list = typeof rawFields === "string" ? rawFields.split(",").map((f) => f.trim()).filter((f) => f !== "") : rawFields;
      if (!Array.isArray(list) || list.length === 0 || !list.every((f) => typeof f === "string"))
        return toolError(
          `invalid arguments for ${tool.name}: argument "fields" must be a list of field names, e.g. ["id", "companyName"]`
        );
      fields = list;
    }
    let result = await this.callOnce(tool, args, fields, signal);
    for (let attempt = 0; attempt < 4; attempt++) {
      const size2 = result.content[0]?.text?.length ?? 0;
      if (result.isError === true || size2 <= MAX_RESULT_CHARS) return result;
      const page = result.structuredContent;
      const count = Array.isArray(page?.results) ? page.results.length : 0;
      if (!tool.paged || count <= 1 || !tool.parameters.some((p) => p.name === "page_size")) break;
      const pageSize = Math.max(1, Math.min(count - 1, Math.floor(count * MAX_RESULT_CHARS * 0.9 / size2)));
      result = await this.callOnce(tool, { ...args, page_size: pageSize }, fields, signal);
    }
    const size = result.content[0]?.text?.length ?? 0;
    if (result.isError !== true && size > MAX_RESULT_CHARS) {
      return toolError(
        `the answer of ${tool.name} is ${size} characters (about ${Math.ceil(size / 4)} tokens), more than the ${MAX_RESULT_CHARS / 4} tokens a result may hold: name the fields you need with \`fields\`${tool.paged ? " or pass a smaller `page_size`" : ""}.`
      );
    }
    return result;
  }
  /** One request for `tool`; see {@link call}. */
  async callOnce(tool, args, fields, signal) {
    let url;
    try {
      url = this.url(tool, args);
    } catch (err) {
      if (err instanceof ArgumentError) return toolError(`invalid arguments for ${tool.name}: ${err.message}`);
      throw err;
    }
    const timeoutMs = this.options.timeoutMs ?? 6e4;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers = { Accept: "application/json" };
    let body;
    if (tool.body !== "none" && args.body !== void 0) {
      body = JSON.stringify(objectArgument(args.body));
      headers["Content-Type"] = "application/json";
    }
    let response;
    let text;
    try {
      response = await this.client.fetch(url, {
        method: tool.method,
        headers,
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout
      });
      text = await response.text();
    } catch (err) {
      if (timeout.aborted)
        return toolError(
          `${tool.method} ${url.pathname}: no answer from the API at ${this.options.baseUrl} within ${timeoutMs / 1e3} s.`
        );
      if (signal?.aborted) return toolError(`${tool.method} ${url.pathname}: cancelled.`);
      const message = err instanceof BizapiNetworkError ? err.message : err.message;
      return toolError(
        `could not reach the API at ${this.options.baseUrl} (${message}). Check BIZAPI_URL and that the server is running.`
      );
    }
    let json = void 0;
    if (text !== "") {
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
    }
    if (!response.ok) return errorResult(response.status, json);
    if (json === void 0) return toolResult({ status: response.status });
    if (Array.isArray(json))
      return toolResult({ results: json.map((r) => pick(r, fields)), nextCursor: null });
    if (json === null || typeof json !== "object") return toolResult({ value: json });
    const answer = json;
    if (tool.paged && Array.isArray(answer.results) && "next" in answer) {
      const next = cursorOf(answer.next);
      let nextCursor = null;
      if (next !== null) {
        if (this.options.statelessCursors === true) nextCursor = encodeCursor(next.cursor, next.query);
        else {
          this.remember(tool.name, next.cursor, next.query);
          nextCursor = next.cursor;
        }
      }
      return toolResult({ results: answer.results.map((r) => pick(r, fields)), nextCursor });
    }
    return toolResult(pick(answer, fields));
  }
};
function toTool(op) {
  const inputSchema = op.method === "GET" ? { ...op.inputSchema, properties: { ...op.inputSchema.properties, fields: FIELDS_SCHEMA } } : op.inputSchema;
  return {
    name: op.name,
    title: op.summary || op.name,
    description: op.description,
    inputSchema,
    annotations: op.annotations
  };
}
function metaTools(operations2, readOnly) {
  const ids = operations2.map((op) => op.name).join(" ");
  return [
    {
      name: "list_operations",
      title: "List API operations",
      description: "Lists the API operations call_operation accepts: id, method, path, summary. `search` narrows them (every word must appear in the id, path, summary or description).",
      inputSchema: {
        type: "object",
        properties: { search: { type: "string", description: 'Words to look for, e.g. "client list".' } },
        additionalProperties: false
      },
      annotations: { title: "List API operations", readOnlyHint: true, idempotentHint: true, openWorldHint: false }
    },
    {
      name: "describe_operation",
      title: "Describe an API operation",
      description: "Describes one API operation: its description, whether it reads or writes, and the JSON Schema of its arguments for call_operation. Call it before a create or an update to learn the body fields.",
      inputSchema: {
        type: "object",
        properties: { operation_id: { type: "string", description: 'An operation id, e.g. "client_create".' } },
        required: ["operation_id"],
        additionalProperties: false
      },
      annotations: {
        title: "Describe an API operation",
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: false
      }
    },
    {
      name: "call_operation",
      title: "Call an API operation",
      description: `Calls one API operation. \`arguments\`: path and query parameters by name (client_id, page_size, search, cursor, \u2026), the request body under \`body\` (describe_operation shows them). Lists answer {results, nextCursor}; pass nextCursor back as cursor. \`fields\` keeps only the named fields. Operations: ${ids}`,
      inputSchema: {
        type: "object",
        properties: {
          operation_id: { type: "string", description: "One of the operation ids above." },
          arguments: { type: "object", description: "The operation's arguments." },
          fields: FIELDS_SCHEMA
        },
        required: ["operation_id"],
        additionalProperties: false
      },
      annotations: {
        title: "Call an API operation",
        readOnlyHint: readOnly,
        ...!readOnly && { destructiveHint: true },
        idempotentHint: false,
        openWorldHint: false
      }
    }
  ];
}
function matches(op, search) {
  const haystack = `${op.name} ${op.name.replace(/_/g, " ")} ${op.method} ${op.path} ${op.summary} ${op.fullDescription}`.toLowerCase();
  return search.toLowerCase().split(/\s+/).filter((w) => w !== "").every((w) => haystack.includes(w));
}
function createMcpServer(options) {
  const operations2 = options.operations ?? selectOperations(buildOperationTools(options.document), options);
  const byName = new Map(operations2.map((op) => [op.name, op]));
  const caller = new OperationCaller(options);
  const dynamic = options.full !== true && options.tools === void 0;
  const tools = dynamic ? metaTools(
    operations2,
    operations2.every((op) => op.method === "GET")
  ) : operations2.map(toTool);
  const server = new Server(
    { name: "bizapi", title: "bizapi Business Management API", version: options.version ?? "0.0.0" },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS }
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (!dynamic) {
      const op2 = byName.get(name);
      if (op2 === void 0) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return caller.call(op2, args, extra.signal);
    }
    if (name === "list_operations") {
      const search = typeof args.search === "string" ? args.search : "";
      const found = operations2.filter((op2) => matches(op2, search)).map((op2) => ({ id: op2.name, method: op2.method, path: op2.path, summary: op2.summary }));
      return toolResult({ operations: found });
    }
    if (name !== "describe_operation" && name !== "call_operation")
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const id = args.operation_id;
    const op = typeof id === "string" ? byName.get(id) : void 0;
    if (op === void 0)
      return toolError(
        `unknown operation_id ${JSON.stringify(id ?? null)}: call list_operations for the operation ids.`
      );
    if (name === "describe_operation") {
      return toolResult({
        operationId: op.name,
        method: op.method,
        path: op.path,
        summary: op.summary,
        description: op.fullDescription,
        annotations: op.annotations,
        inputSchema: op.inputSchema
      });
    }
    const callArgs = objectArgument(args.arguments ?? {});
    if (callArgs === null || typeof callArgs !== "object" || Array.isArray(callArgs))
      return toolError("invalid arguments for call_operation: `arguments` must be an object.");
    return caller.call(
      op,
      { ...callArgs, ...args.fields !== void 0 && { fields: args.fields } },
      extra.signal
    );
  });
  return { server, operations: operations2, tools };
}

// src/stdio.ts
import fs from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
var DEFAULT_URL = "http://127.0.0.1:8000";
function bundledDocument() {
  return JSON.parse(fs.readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));
}
function checkedUrl(url, command) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpConfigError(`BIZAPI_URL: "${url}" is not a URL (e.g. ${DEFAULT_URL}).`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new McpConfigError(`BIZAPI_URL: "${url}" is not an http:// or https:// URL.`);
  if (!/\/v1\/?$/.test(parsed.pathname)) return url;
  const base = url.replace(/\/v1\/?$/, "");
  process.stderr.write(`${command}: BIZAPI_URL ends with /v1; using ${base} (the tools add /v1 themselves)
`);
  return base;
}
function documentFile(file) {
  let text;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new McpConfigError(`Cannot read ${file}: ${err.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`${file} is not valid JSON: ${err.message}`);
  }
}
async function serveStdio(options) {
  const baseUrl = checkedUrl(options.url, options.command);
  const { apiKey, secretKey } = options;
  if (!apiKey) throw new McpConfigError("BIZAPI_API_KEY is required: the API key the MCP server calls the API with.");
  if (!secretKey)
    throw new McpConfigError("BIZAPI_SECRET_KEY is required: the secret of BIZAPI_API_KEY, to sign every request.");
  const signature = options.signature ?? "v1";
  if (signature !== "v1" && signature !== "v2")
    throw new McpConfigError(`--signature: "${signature}" is not v1 or v2.`);
  const tools = options.tools?.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (tools !== void 0 && tools.length === 0)
    throw new McpConfigError("--tools: name at least one operation id (comma-separated).");
  const document = options.openapi !== void 0 ? documentFile(options.openapi) : bundledDocument();
  let created;
  try {
    created = createMcpServer({
      document,
      baseUrl,
      apiKey,
      secretKey,
      signature,
      readOnly: options.readOnly === true,
      ...tools !== void 0 && { tools },
      full: options.full === true && options.dynamic !== true,
      extensions: options.extensions !== false,
      version: options.version
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw err;
    throw new McpConfigError(`the OpenAPI document cannot be turned into tools: ${err.message}`);
  }
  const { server, operations: operations2 } = created;
  process.on(
    "unhandledRejection",
    (reason) => process.stderr.write(`${options.command}: unhandled rejection: ${String(reason?.stack ?? reason)}
`)
  );
  server.onerror = (err) => process.stderr.write(`${options.command}: ${err.message}
`);
  await server.connect(new StdioServerTransport());
  const close = () => void server.close().finally(() => process.exit(0));
  process.stdin.once("end", close);
  process.stdin.once("close", close);
  process.once("SIGTERM", close);
  process.once("SIGINT", close);
  const mode = created.tools.length === operations2.length ? `${operations2.length} tools, one per operation` : `${created.tools.length} tools over ${operations2.length} operations`;
  process.stderr.write(
    `${options.command}: ${mode}${options.readOnly === true ? ", read-only" : ""}, calling ${baseUrl} (signature ${signature}); JSON-RPC on stdio
`
  );
}

// src/cli.ts
function packageVersion() {
  return JSON.parse(fs2.readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
}
var USAGE = `Usage: bizapi-mcp [options]

The bizapi MCP server over stdio (Model Context Protocol; docs/mcp.md).
Settings: BIZAPI_URL (default ${DEFAULT_URL}), BIZAPI_API_KEY, BIZAPI_SECRET_KEY.

Options:
  --url <url>            the API's address (over BIZAPI_URL)
  --signature <v1|v2>    request signature (default v1, the reference service's)
  --read-only            offer only the reads (GET operations)
  --tools <ids>          offer only these operations, one tool each (comma-separated operation ids)
  --full                 one tool per operation instead of the three default tools
  --dynamic              the three default tools (the default; kept for older configurations)
  --no-extensions        leave out the operations the reference service lacks
  --openapi <file>       build the tools from this OpenAPI document instead of the bundled one
  --version, --help
`;
async function main(argv, env) {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        url: { type: "string" },
        signature: { type: "string" },
        "read-only": { type: "boolean" },
        tools: { type: "string" },
        full: { type: "boolean" },
        dynamic: { type: "boolean" },
        "no-extensions": { type: "boolean" },
        openapi: { type: "string" },
        version: { type: "boolean" },
        help: { type: "boolean", short: "h" }
      }
    }));
  } catch (err) {
    process.stderr.write(`bizapi-mcp: ${err.message}

${USAGE}`);
    return 1;
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version === true) {
    process.stdout.write(`${packageVersion()}
`);
    return 0;
  }
  try {
    await serveStdio({
      url: values.url ?? (env.BIZAPI_URL !== void 0 && env.BIZAPI_URL !== "" ? env.BIZAPI_URL : DEFAULT_URL),
      apiKey: env.BIZAPI_API_KEY,
      secretKey: env.BIZAPI_SECRET_KEY,
      ...values.signature !== void 0 && { signature: values.signature },
      readOnly: values["read-only"] === true,
      ...values.tools !== void 0 && { tools: values.tools },
      full: values.full === true,
      dynamic: values.dynamic === true,
      extensions: values["no-extensions"] !== true,
      ...values.openapi !== void 0 && { openapi: values.openapi },
      command: "bizapi-mcp",
      version: packageVersion()
    });
    return void 0;
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    process.stderr.write(`bizapi-mcp: ${err.message}
`);
    return 1;
  }
}
export {
  DEFAULT_URL,
  MAX_RESULT_CHARS,
  McpConfigError,
  buildOperationTools,
  bundledDocument,
  createMcpServer,
  errorResult,
  fieldMessages2 as fieldMessages,
  firstSentence,
  main,
  packageVersion,
  selectOperations,
  serveStdio
};
