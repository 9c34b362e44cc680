/**
 * Every code the server puts in an error's extensions.code (docs/API.md §2.5). Errors carry the code
 * as a plain string, since extensions are free-form: this enum lists and documents the values, and
 * no field returns it. The codes are defined in internal/apperr, and a test keeps this list equal to
 * that one. Codes may be added: a client should handle one it does not know as a failure described
 * by the error's message.
 */
export type ErrorCode =
  /** seckillVoucher when the viewer already holds an order for the voucher (one per customer). */
  | 'ALREADY_ORDERED'
  /**
   * an argument or input field is invalid (extensions.field names it), a login failed, or a request
   * was refused before GraphQL ran (a body over the size limit, a multipart request without the
   * preflight header, a body that is not a GraphQL request).
   */
  | 'BAD_USER_INPUT'
  /**
   * a POST body that is a JSON array of operations (a batch), refused with HTTP 400; send one
   * operation per request.
   */
  | 'BATCHING_NOT_SUPPORTED'
  /** the operation's complexity is above the limit; nothing ran. */
  | 'COMPLEXITY_LIMIT_EXCEEDED'
  /**
   * the order is not in a state the change allows (still PENDING, past its pay deadline, or in
   * another status), or the month's sign-in make-ups are used up.
   */
  | 'CONFLICT'
  /**
   * the GraphQL document is over a limit checked before it is validated (bytes, tokens or field
   * comparisons); extensions.limit is the limit.
   */
  | 'DOCUMENT_TOO_LARGE'
  /**
   * an @admin field asked for by a logged-in user who is not an admin, or a change of something that
   * is not the viewer's to change (deleteBlog on someone else's blog, deleteComment by anyone but
   * the comment's or the blog's author).
   */
  | 'FORBIDDEN'
  /** the document does not parse (a code of gqlgen's own). */
  | 'GRAPHQL_PARSE_FAILED'
  /**
   * the document does not validate against the schema, or nests deeper than the depth limit (a code
   * of gqlgen's own).
   */
  | 'GRAPHQL_VALIDATION_FAILED'
  /** anything else (a database error, a bug), shown without details. */
  | 'INTERNAL_SERVER_ERROR'
  /** __schema or __type asked for while introspection is off. */
  | 'INTROSPECTION_DISABLED'
  /**
   * the target of a mutation (or of blogComments) does not exist or is not the viewer's.
   * Single-object queries answer null instead.
   */
  | 'NOT_FOUND'
  /**
   * refundOrder on a PAID order this server recorded no payment for; nothing is asked of the payment
   * provider and the order stays PAID.
   */
  | 'NO_PAYMENT'
  /** seckillVoucher or seckillToken when every unit of the flash sale is taken. */
  | 'OUT_OF_STOCK'
  /**
   * payOrder when the payment provider could not open the payment (the order stays UNPAID), or
   * refundOrder when it did not accept the refund (the order stays REFUNDING); the same call may be
   * repeated: the provider charges and pays back each payment at most once.
   */
  | 'PAYMENT_FAILED'
  /**
   * an automatic persisted query's hash this instance does not know; send the query with its hash (a
   * code of gqlgen's own).
   */
  | 'PERSISTED_QUERY_NOT_FOUND'
  /**
   * a rate limit was hit; extensions.retryAfterMs says how many milliseconds to wait before the next
   * attempt can succeed.
   */
  | 'RATE_LIMITED'
  /** seckillVoucher or seckillToken at or after the sale's endTime. */
  | 'SALE_ENDED'
  /** seckillVoucher or seckillToken before the sale's beginTime. */
  | 'SALE_NOT_STARTED'
  /**
   * only in a websocket error message that ends a subscription early; extensions.reason is
   * slow_consumer, session_ended or shutdown. Subscribe again.
   */
  | 'SUBSCRIPTION_CLOSED'
  /**
   * only over a websocket, which already runs as many operations as it may at once; extensions.max
   * is the cap.
   */
  | 'TOO_MANY_OPERATIONS'
  /**
   * a field marked @login or @admin was asked for without a live session (no token, or an unknown or
   * expired one); also an operation on a websocket whose session has ended.
   */
  | 'UNAUTHENTICATED'
  /**
   * a dependency could not confirm the change in time (Redis replicas, for seckillVoucher); the
   * change may still have happened, so read before retrying. Also the answer, at once, while Redis
   * does not answer, is full or is a Cluster that is down (CLUSTERDOWN), and (HTTP 503) while the
   * session store cannot be read: then nothing was done, and retryAfterMs says when to try again.
   */
  | 'UNAVAILABLE'
  /**
   * uploadImage past the bytes of live uploads each user may keep (the message names the limit);
   * nothing is stored.
   */
  | 'UPLOAD_QUOTA_EXCEEDED';
