/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n": typeof types.UserBriefFragmentDoc,
    "\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n": typeof types.BlogCardFragmentDoc,
    "\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n": typeof types.ShopCardFragmentDoc,
    "\n  query Me {\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n": typeof types.SendCodeDocument,
    "\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": typeof types.UpdateProfileDocument,
    "\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n": typeof types.HomeDocument,
    "\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.HotBlogsDocument,
    "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n": typeof types.ShopsDocument,
    "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.SearchShopsDocument,
    "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n  }\n": typeof types.ShopDocument,
    "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    payType\n    createTime\n    payTime\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n": typeof types.OrderFieldsFragmentDoc,
    "\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n": typeof types.SeckillTokenDocument,
    "\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n": typeof types.SeckillDocument,
    "\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n": typeof types.OrderDocument,
    "\n  query MyOrders($first: Int, $after: String) {\n    myOrders(first: $first, after: $after) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.MyOrdersDocument,
    "\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n": typeof types.PayOrderDocument,
    "\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": typeof types.CancelOrderDocument,
    "\n  subscription OrderUpdates {\n    orderUpdates {\n      ...OrderFields\n    }\n  }\n": typeof types.OrderUpdatesDocument,
    "\n  query Blog($id: ID!) {\n    blog(id: $id) {\n      id\n      title\n      content\n      images\n      liked\n      likedByMe\n      comments\n      createTime\n      shop {\n        id\n        name\n        area\n      }\n      author {\n        ...UserBrief\n        followedByMe\n      }\n      topLikers {\n        ...UserBrief\n      }\n    }\n    me {\n      id\n    }\n  }\n": typeof types.BlogDocument,
    "\n  mutation SetBlogLike($blogId: ID!, $liked: Boolean!) {\n    setBlogLike(blogId: $blogId, liked: $liked) {\n      id\n      liked\n      likedByMe\n      topLikers {\n        ...UserBrief\n      }\n    }\n  }\n": typeof types.SetBlogLikeDocument,
    "\n  mutation SetFollow($userId: ID!, $follow: Boolean!) {\n    setFollow(userId: $userId, follow: $follow) {\n      id\n      followedByMe\n      followerCount\n      followeeCount\n    }\n  }\n": typeof types.SetFollowDocument,
    "\n  mutation DeleteBlog($id: ID!) {\n    deleteBlog(id: $id)\n  }\n": typeof types.DeleteBlogDocument,
    "\n  mutation CreateBlog($input: CreateBlogInput!) {\n    createBlog(input: $input) {\n      id\n    }\n  }\n": typeof types.CreateBlogDocument,
    "\n  query Feed($first: Int, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.FeedDocument,
    "\n  subscription FeedItems {\n    feedItems {\n      ...BlogCard\n    }\n  }\n": typeof types.FeedItemsDocument,
    "\n  query User($id: ID!) {\n    user(id: $id) {\n      ...UserBrief\n      followerCount\n      followeeCount\n      followedByMe\n      info {\n        city\n        introduce\n        level\n      }\n    }\n    me {\n      id\n    }\n  }\n": typeof types.UserDocument,
    "\n  query CommonFollows($id: ID!) {\n    commonFollows(userId: $id) {\n      ...UserBrief\n    }\n  }\n": typeof types.CommonFollowsDocument,
    "\n  query UserBlogs($userId: ID!, $first: Int, $after: String) {\n    blogsByUser(userId: $userId, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.UserBlogsDocument,
    "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      signedToday\n      streak\n      days\n    }\n  }\n": typeof types.SignInStatusDocument,
    "\n  mutation SignIn {\n    signIn {\n      signedToday\n      streak\n      days\n    }\n  }\n": typeof types.SignInDocument,
};
const documents: Documents = {
    "\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n": types.UserBriefFragmentDoc,
    "\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n": types.BlogCardFragmentDoc,
    "\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n": types.ShopCardFragmentDoc,
    "\n  query Me {\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": types.MeDocument,
    "\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n": types.SendCodeDocument,
    "\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n": types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": types.UpdateProfileDocument,
    "\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n": types.HomeDocument,
    "\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.HotBlogsDocument,
    "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n": types.ShopsDocument,
    "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.SearchShopsDocument,
    "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n  }\n": types.ShopDocument,
    "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    payType\n    createTime\n    payTime\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n": types.OrderFieldsFragmentDoc,
    "\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n": types.SeckillTokenDocument,
    "\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n": types.SeckillDocument,
    "\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n": types.OrderDocument,
    "\n  query MyOrders($first: Int, $after: String) {\n    myOrders(first: $first, after: $after) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.MyOrdersDocument,
    "\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n": types.PayOrderDocument,
    "\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": types.CancelOrderDocument,
    "\n  subscription OrderUpdates {\n    orderUpdates {\n      ...OrderFields\n    }\n  }\n": types.OrderUpdatesDocument,
    "\n  query Blog($id: ID!) {\n    blog(id: $id) {\n      id\n      title\n      content\n      images\n      liked\n      likedByMe\n      comments\n      createTime\n      shop {\n        id\n        name\n        area\n      }\n      author {\n        ...UserBrief\n        followedByMe\n      }\n      topLikers {\n        ...UserBrief\n      }\n    }\n    me {\n      id\n    }\n  }\n": types.BlogDocument,
    "\n  mutation SetBlogLike($blogId: ID!, $liked: Boolean!) {\n    setBlogLike(blogId: $blogId, liked: $liked) {\n      id\n      liked\n      likedByMe\n      topLikers {\n        ...UserBrief\n      }\n    }\n  }\n": types.SetBlogLikeDocument,
    "\n  mutation SetFollow($userId: ID!, $follow: Boolean!) {\n    setFollow(userId: $userId, follow: $follow) {\n      id\n      followedByMe\n      followerCount\n      followeeCount\n    }\n  }\n": types.SetFollowDocument,
    "\n  mutation DeleteBlog($id: ID!) {\n    deleteBlog(id: $id)\n  }\n": types.DeleteBlogDocument,
    "\n  mutation CreateBlog($input: CreateBlogInput!) {\n    createBlog(input: $input) {\n      id\n    }\n  }\n": types.CreateBlogDocument,
    "\n  query Feed($first: Int, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.FeedDocument,
    "\n  subscription FeedItems {\n    feedItems {\n      ...BlogCard\n    }\n  }\n": types.FeedItemsDocument,
    "\n  query User($id: ID!) {\n    user(id: $id) {\n      ...UserBrief\n      followerCount\n      followeeCount\n      followedByMe\n      info {\n        city\n        introduce\n        level\n      }\n    }\n    me {\n      id\n    }\n  }\n": types.UserDocument,
    "\n  query CommonFollows($id: ID!) {\n    commonFollows(userId: $id) {\n      ...UserBrief\n    }\n  }\n": types.CommonFollowsDocument,
    "\n  query UserBlogs($userId: ID!, $first: Int, $after: String) {\n    blogsByUser(userId: $userId, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.UserBlogsDocument,
    "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      signedToday\n      streak\n      days\n    }\n  }\n": types.SignInStatusDocument,
    "\n  mutation SignIn {\n    signIn {\n      signedToday\n      streak\n      days\n    }\n  }\n": types.SignInDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n"): (typeof documents)["\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n"): (typeof documents)["\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n"): (typeof documents)["\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n"): (typeof documents)["\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n"): (typeof documents)["\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    payType\n    createTime\n    payTime\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    payType\n    createTime\n    payTime\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyOrders($first: Int, $after: String) {\n    myOrders(first: $first, after: $after) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyOrders($first: Int, $after: String) {\n    myOrders(first: $first, after: $after) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription OrderUpdates {\n    orderUpdates {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  subscription OrderUpdates {\n    orderUpdates {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Blog($id: ID!) {\n    blog(id: $id) {\n      id\n      title\n      content\n      images\n      liked\n      likedByMe\n      comments\n      createTime\n      shop {\n        id\n        name\n        area\n      }\n      author {\n        ...UserBrief\n        followedByMe\n      }\n      topLikers {\n        ...UserBrief\n      }\n    }\n    me {\n      id\n    }\n  }\n"): (typeof documents)["\n  query Blog($id: ID!) {\n    blog(id: $id) {\n      id\n      title\n      content\n      images\n      liked\n      likedByMe\n      comments\n      createTime\n      shop {\n        id\n        name\n        area\n      }\n      author {\n        ...UserBrief\n        followedByMe\n      }\n      topLikers {\n        ...UserBrief\n      }\n    }\n    me {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetBlogLike($blogId: ID!, $liked: Boolean!) {\n    setBlogLike(blogId: $blogId, liked: $liked) {\n      id\n      liked\n      likedByMe\n      topLikers {\n        ...UserBrief\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetBlogLike($blogId: ID!, $liked: Boolean!) {\n    setBlogLike(blogId: $blogId, liked: $liked) {\n      id\n      liked\n      likedByMe\n      topLikers {\n        ...UserBrief\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetFollow($userId: ID!, $follow: Boolean!) {\n    setFollow(userId: $userId, follow: $follow) {\n      id\n      followedByMe\n      followerCount\n      followeeCount\n    }\n  }\n"): (typeof documents)["\n  mutation SetFollow($userId: ID!, $follow: Boolean!) {\n    setFollow(userId: $userId, follow: $follow) {\n      id\n      followedByMe\n      followerCount\n      followeeCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteBlog($id: ID!) {\n    deleteBlog(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteBlog($id: ID!) {\n    deleteBlog(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateBlog($input: CreateBlogInput!) {\n    createBlog(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation CreateBlog($input: CreateBlogInput!) {\n    createBlog(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Feed($first: Int, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query Feed($first: Int, $after: String) {\n    feed(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription FeedItems {\n    feedItems {\n      ...BlogCard\n    }\n  }\n"): (typeof documents)["\n  subscription FeedItems {\n    feedItems {\n      ...BlogCard\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query User($id: ID!) {\n    user(id: $id) {\n      ...UserBrief\n      followerCount\n      followeeCount\n      followedByMe\n      info {\n        city\n        introduce\n        level\n      }\n    }\n    me {\n      id\n    }\n  }\n"): (typeof documents)["\n  query User($id: ID!) {\n    user(id: $id) {\n      ...UserBrief\n      followerCount\n      followeeCount\n      followedByMe\n      info {\n        city\n        introduce\n        level\n      }\n    }\n    me {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CommonFollows($id: ID!) {\n    commonFollows(userId: $id) {\n      ...UserBrief\n    }\n  }\n"): (typeof documents)["\n  query CommonFollows($id: ID!) {\n    commonFollows(userId: $id) {\n      ...UserBrief\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserBlogs($userId: ID!, $first: Int, $after: String) {\n    blogsByUser(userId: $userId, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query UserBlogs($userId: ID!, $first: Int, $after: String) {\n    blogsByUser(userId: $userId, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      signedToday\n      streak\n      days\n    }\n  }\n"): (typeof documents)["\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      signedToday\n      streak\n      days\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn {\n    signIn {\n      signedToday\n      streak\n      days\n    }\n  }\n"): (typeof documents)["\n  mutation SignIn {\n    signIn {\n      signedToday\n      streak\n      days\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;