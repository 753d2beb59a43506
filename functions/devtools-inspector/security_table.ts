/**
 * The security table: every check of the audit, in report order. Each row is data (its
 * outcomes with their score modifiers, pass flags and advice) plus the test that picks one;
 * add a row here to extend the audit. Modifiers and ids follow the MDN HTTP Observatory where
 * it has the check; README.md lists the rows that are this service's own.
 */
import type { SecurityCheck } from "./check_definition.ts";
import { cspCheck, sriCheck, sriStylesheetCheck } from "./checks_content.ts";
import { versionDisclosureCheck } from "./checks_disclosure.ts";
import { tlsCertificateCheck, tlsVersionCheck } from "./checks_tls.ts";
import { cookiesCheck } from "./checks_cookies.ts";
import { corsCheck } from "./checks_cors.ts";
import {
  contentTypeOptionsCheck,
  frameOptionsCheck,
  openerPolicyCheck,
  permissionsPolicyCheck,
  referrerPolicyCheck,
  resourcePolicyCheck,
} from "./checks_headers.ts";
import { hstsCheck, mixedContentCheck, redirectionCheck } from "./checks_transport.ts";

/** The checks, in the order they are reported. */
export const SECURITY_CHECKS: readonly SecurityCheck[] = [
  hstsCheck,
  redirectionCheck,
  cspCheck,
  frameOptionsCheck,
  contentTypeOptionsCheck,
  referrerPolicyCheck,
  permissionsPolicyCheck,
  openerPolicyCheck,
  resourcePolicyCheck,
  corsCheck,
  cookiesCheck,
  mixedContentCheck,
  sriCheck,
  sriStylesheetCheck,
  versionDisclosureCheck,
  tlsCertificateCheck,
  tlsVersionCheck,
];
