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
    "\n  query OpViewer {\n    viewerIsAdmin\n    shopTypes {\n      id\n      name\n    }\n  }\n": typeof types.OpViewerDocument,
    "\n  fragment OpShopFields on Shop {\n    id\n    name\n    type {\n      id\n    }\n    images\n    area\n    address\n    x\n    y\n    avgPrice\n    openHours\n  }\n": typeof types.OpShopFieldsFragmentDoc,
    "\n  query OpFindShops($name: String!) {\n    searchShops(name: $name, first: 20) {\n      edges {\n        node {\n          id\n          name\n          address\n        }\n      }\n    }\n  }\n": typeof types.OpFindShopsDocument,
    "\n  query OpShop($id: ID!) {\n    shop(id: $id) {\n      ...OpShopFields\n    }\n    operatorVouchers(shopId: $id) {\n      ...OpVoucherFields\n    }\n  }\n": typeof types.OpShopDocument,
    "\n  mutation OpCreateShop($input: CreateShopInput!) {\n    createShop(input: $input) {\n      ...OpShopFields\n    }\n  }\n": typeof types.OpCreateShopDocument,
    "\n  mutation OpUpdateShop($id: ID!, $input: UpdateShopInput!) {\n    updateShop(id: $id, input: $input) {\n      ...OpShopFields\n    }\n  }\n": typeof types.OpUpdateShopDocument,
    "\n  fragment OpVoucherFields on Voucher {\n    id\n    title\n    subTitle\n    rules\n    payValue\n    actualValue\n    type\n    status\n    perUserLimit\n    seckill {\n      stock\n      beginTime\n      endTime\n    }\n  }\n": typeof types.OpVoucherFieldsFragmentDoc,
    "\n  mutation OpCreateVoucher($input: CreateVoucherInput!) {\n    createVoucher(input: $input) {\n      ...OpVoucherFields\n    }\n  }\n": typeof types.OpCreateVoucherDocument,
    "\n  mutation OpUpdateVoucher($id: ID!, $input: UpdateVoucherInput!) {\n    updateVoucher(id: $id, input: $input) {\n      ...OpVoucherFields\n    }\n  }\n": typeof types.OpUpdateVoucherDocument,
    "\n  mutation OpSetOnSale($id: ID!, $onSale: Boolean!) {\n    setVoucherOnSale(id: $id, onSale: $onSale) {\n      ...OpVoucherFields\n    }\n  }\n": typeof types.OpSetOnSaleDocument,
    "\n  query OpSale($id: ID!) {\n    saleNumbers(voucherId: $id) {\n      voucherId\n      redisStock\n      mysqlStock\n      admitted\n      pending\n      persisted\n      orders {\n        status\n        count\n      }\n      rejectedTotal\n      rejected {\n        reason\n        count\n      }\n      deadLetters\n      beginTime\n      endTime\n      at\n    }\n    deadLetters(sale: $id, first: 50) {\n      id\n      at\n      reason\n      orderId\n      userId\n    }\n  }\n": typeof types.OpSaleDocument,
    "\n  mutation OpReplay($sale: ID!, $id: String!) {\n    replayDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n      newOrderId\n    }\n  }\n": typeof types.OpReplayDocument,
    "\n  mutation OpDiscard($sale: ID!, $id: String!) {\n    discardDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n    }\n  }\n": typeof types.OpDiscardDocument,
    "\n  mutation OpRedeem($id: ID!) {\n    redeemOrder(orderId: $id) {\n      id\n      status\n      useTime\n      voucher {\n        title\n        shop {\n          name\n        }\n      }\n    }\n  }\n": typeof types.OpRedeemDocument,
    "\n  query OpShopOrders($shopId: ID!, $status: OrderStatus, $first: Int, $after: String) {\n    shopOrders(shopId: $shopId, status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          status\n          createTime\n          payTime\n          useTime\n          voucher {\n            id\n            title\n          }\n          user {\n            id\n            nickName\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.OpShopOrdersDocument,
    "\n  query OpAudit($shopId: ID, $first: Int, $after: String) {\n    operatorAudit(shopId: $shopId, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          actor\n          action\n          at\n          shopId\n          voucherId\n          orderId\n          deadLetterId\n          outcome\n          detail\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.OpAuditDocument,
    "\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n": typeof types.UserBriefFragmentDoc,
    "\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n": typeof types.BlogCardFragmentDoc,
    "\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n": typeof types.ShopCardFragmentDoc,
    "\n  query Me {\n    viewerIsAdmin\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n": typeof types.SendCodeDocument,
    "\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": typeof types.UpdateProfileDocument,
    "\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n": typeof types.HomeDocument,
    "\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.HotBlogsDocument,
    "\n  fragment ShopTag on Shop {\n    bestVoucher {\n      label\n      flashSale\n    }\n  }\n": typeof types.ShopTagFragmentDoc,
    "\n  query ShopAreas($typeId: ID!) {\n    shopAreas(typeId: $typeId)\n  }\n": typeof types.ShopAreasDocument,
    "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String, $sort: ShopSort, $filter: ShopFilter) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after, sort: $sort, filter: $filter) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n": typeof types.ShopsDocument,
    "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.SearchShopsDocument,
    "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      viewerRating\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        maxQuantity\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n    seckillTokenRequired\n  }\n": typeof types.ShopDocument,
    "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    quantity\n    payType\n    createTime\n    payTime\n    useTime\n    refundTime\n    payDeadline\n    cancelReason\n    payment {\n      attempt\n      status\n      amount\n      payType\n      payUrl\n      refundAmount\n    }\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n": typeof types.OrderFieldsFragmentDoc,
    "\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n": typeof types.SeckillTokenDocument,
    "\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n": typeof types.SeckillDocument,
    "\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n": typeof types.OrderDocument,
    "\n  query MyOrders($first: Int, $after: String, $shopId: ID) {\n    myOrders(first: $first, after: $after, shopId: $shopId) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.MyOrdersDocument,
    "\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n": typeof types.PayOrderDocument,
    "\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": typeof types.CancelOrderDocument,
    "\n  mutation RefundOrder($orderId: ID!) {\n    refundOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": typeof types.RefundOrderDocument,
    "\n  subscription SaleUpdates($ids: [ID!]!) {\n    saleUpdates(ids: $ids) {\n      voucherId\n      stock\n      state\n    }\n  }\n": typeof types.SaleUpdatesDocument,
    "\n  query ShopBlogs($shopId: ID!, $orderBy: BlogOrder!, $first: Int, $after: String) {\n    blogsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ShopBlogsDocument,
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
    "\n  fragment SignInFields on SignInStatus {\n    today\n    signedToday\n    streak\n    days\n    madeUpDays\n    makeUpsLeft\n  }\n": typeof types.SignInFieldsFragmentDoc,
    "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      ...SignInFields\n    }\n  }\n": typeof types.SignInStatusDocument,
    "\n  mutation SignIn {\n    signIn {\n      ...SignInFields\n    }\n  }\n": typeof types.SignInDocument,
    "\n  fragment CommentFields on Comment {\n    id\n    content\n    liked\n    likedByMe\n    parentId\n    deleted\n    createTime\n    author {\n      ...UserBrief\n    }\n    replyTo {\n      id\n      author {\n        id\n        nickName\n      }\n    }\n  }\n": typeof types.CommentFieldsFragmentDoc,
    "\n  query Comments($blogId: ID!, $first: Int, $after: String) {\n    blog(id: $blogId) {\n      id\n      comments\n      commentList(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n            replyCount\n            replies(first: 3) {\n              edges {\n                node {\n                  ...CommentFields\n                }\n              }\n              pageInfo {\n                hasNextPage\n                endCursor\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.CommentsDocument,
    "\n  query Replies($id: ID!, $first: Int, $after: String) {\n    comment(id: $id) {\n      id\n      replyCount\n      replies(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.RepliesDocument,
    "\n  query CommentCount($blogId: ID!) {\n    blog(id: $blogId) {\n      id\n      comments\n    }\n  }\n": typeof types.CommentCountDocument,
    "\n  mutation AddComment($blogId: ID!, $content: String!, $replyTo: ID) {\n    addComment(blogId: $blogId, content: $content, replyTo: $replyTo) {\n      ...CommentFields\n    }\n  }\n": typeof types.AddCommentDocument,
    "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n": typeof types.DeleteCommentDocument,
    "\n  mutation SetCommentLike($id: ID!, $liked: Boolean!) {\n    setCommentLike(id: $id, liked: $liked) {\n      id\n      liked\n      likedByMe\n    }\n  }\n": typeof types.SetCommentLikeDocument,
    "\n  subscription BlogComments($blogId: ID!) {\n    blogComments(blogId: $blogId) {\n      ...CommentFields\n    }\n  }\n": typeof types.BlogCommentsDocument,
    "\n  mutation MakeUpSignIn($date: String!) {\n    makeUpSignIn(date: $date) {\n      ...SignInFields\n    }\n  }\n": typeof types.MakeUpSignInDocument,
    "\n  mutation BuyVoucher($voucherId: ID!, $quantity: Int!) {\n    buyVoucher(voucherId: $voucherId, quantity: $quantity) {\n      ...OrderFields\n    }\n  }\n": typeof types.BuyVoucherDocument,
    "\n  query ShopReviews($shopId: ID!, $orderBy: ReviewOrder!, $first: Int, $after: String) {\n    reviewsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          stars\n          blog {\n            id\n            title\n            content\n            createTime\n            author {\n              ...UserBrief\n            }\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.ShopReviewsDocument,
    "\n  mutation RateShop($shopId: ID!, $stars: Int!) {\n    rateShop(shopId: $shopId, stars: $stars) {\n      id\n      score\n      comments\n    }\n  }\n": typeof types.RateShopDocument,
};
const documents: Documents = {
    "\n  query OpViewer {\n    viewerIsAdmin\n    shopTypes {\n      id\n      name\n    }\n  }\n": types.OpViewerDocument,
    "\n  fragment OpShopFields on Shop {\n    id\n    name\n    type {\n      id\n    }\n    images\n    area\n    address\n    x\n    y\n    avgPrice\n    openHours\n  }\n": types.OpShopFieldsFragmentDoc,
    "\n  query OpFindShops($name: String!) {\n    searchShops(name: $name, first: 20) {\n      edges {\n        node {\n          id\n          name\n          address\n        }\n      }\n    }\n  }\n": types.OpFindShopsDocument,
    "\n  query OpShop($id: ID!) {\n    shop(id: $id) {\n      ...OpShopFields\n    }\n    operatorVouchers(shopId: $id) {\n      ...OpVoucherFields\n    }\n  }\n": types.OpShopDocument,
    "\n  mutation OpCreateShop($input: CreateShopInput!) {\n    createShop(input: $input) {\n      ...OpShopFields\n    }\n  }\n": types.OpCreateShopDocument,
    "\n  mutation OpUpdateShop($id: ID!, $input: UpdateShopInput!) {\n    updateShop(id: $id, input: $input) {\n      ...OpShopFields\n    }\n  }\n": types.OpUpdateShopDocument,
    "\n  fragment OpVoucherFields on Voucher {\n    id\n    title\n    subTitle\n    rules\n    payValue\n    actualValue\n    type\n    status\n    perUserLimit\n    seckill {\n      stock\n      beginTime\n      endTime\n    }\n  }\n": types.OpVoucherFieldsFragmentDoc,
    "\n  mutation OpCreateVoucher($input: CreateVoucherInput!) {\n    createVoucher(input: $input) {\n      ...OpVoucherFields\n    }\n  }\n": types.OpCreateVoucherDocument,
    "\n  mutation OpUpdateVoucher($id: ID!, $input: UpdateVoucherInput!) {\n    updateVoucher(id: $id, input: $input) {\n      ...OpVoucherFields\n    }\n  }\n": types.OpUpdateVoucherDocument,
    "\n  mutation OpSetOnSale($id: ID!, $onSale: Boolean!) {\n    setVoucherOnSale(id: $id, onSale: $onSale) {\n      ...OpVoucherFields\n    }\n  }\n": types.OpSetOnSaleDocument,
    "\n  query OpSale($id: ID!) {\n    saleNumbers(voucherId: $id) {\n      voucherId\n      redisStock\n      mysqlStock\n      admitted\n      pending\n      persisted\n      orders {\n        status\n        count\n      }\n      rejectedTotal\n      rejected {\n        reason\n        count\n      }\n      deadLetters\n      beginTime\n      endTime\n      at\n    }\n    deadLetters(sale: $id, first: 50) {\n      id\n      at\n      reason\n      orderId\n      userId\n    }\n  }\n": types.OpSaleDocument,
    "\n  mutation OpReplay($sale: ID!, $id: String!) {\n    replayDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n      newOrderId\n    }\n  }\n": types.OpReplayDocument,
    "\n  mutation OpDiscard($sale: ID!, $id: String!) {\n    discardDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n    }\n  }\n": types.OpDiscardDocument,
    "\n  mutation OpRedeem($id: ID!) {\n    redeemOrder(orderId: $id) {\n      id\n      status\n      useTime\n      voucher {\n        title\n        shop {\n          name\n        }\n      }\n    }\n  }\n": types.OpRedeemDocument,
    "\n  query OpShopOrders($shopId: ID!, $status: OrderStatus, $first: Int, $after: String) {\n    shopOrders(shopId: $shopId, status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          status\n          createTime\n          payTime\n          useTime\n          voucher {\n            id\n            title\n          }\n          user {\n            id\n            nickName\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.OpShopOrdersDocument,
    "\n  query OpAudit($shopId: ID, $first: Int, $after: String) {\n    operatorAudit(shopId: $shopId, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          actor\n          action\n          at\n          shopId\n          voucherId\n          orderId\n          deadLetterId\n          outcome\n          detail\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.OpAuditDocument,
    "\n  fragment UserBrief on User {\n    id\n    nickName\n    icon\n  }\n": types.UserBriefFragmentDoc,
    "\n  fragment BlogCard on Blog {\n    id\n    title\n    images\n    liked\n    likedByMe\n    createTime\n    author {\n      ...UserBrief\n    }\n  }\n": types.BlogCardFragmentDoc,
    "\n  fragment ShopCard on Shop {\n    id\n    name\n    images\n    area\n    address\n    avgPrice\n    score\n    sold\n    comments\n    distance\n    x\n    y\n  }\n": types.ShopCardFragmentDoc,
    "\n  query Me {\n    viewerIsAdmin\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": types.MeDocument,
    "\n  mutation SendCode($phone: String!) {\n    sendCode(phone: $phone)\n  }\n": types.SendCodeDocument,
    "\n  mutation Login($phone: String!, $code: String, $password: String) {\n    login(phone: $phone, code: $code, password: $password) {\n      token\n      user {\n        ...UserBrief\n      }\n    }\n  }\n": types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  mutation UpdateProfile($input: UpdateProfileInput!) {\n    updateProfile(input: $input) {\n      ...UserBrief\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n": types.UpdateProfileDocument,
    "\n  query Home {\n    shopTypes {\n      id\n      name\n      icon\n    }\n  }\n": types.HomeDocument,
    "\n  query HotBlogs($first: Int, $after: String) {\n    hotBlogs(first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.HotBlogsDocument,
    "\n  fragment ShopTag on Shop {\n    bestVoucher {\n      label\n      flashSale\n    }\n  }\n": types.ShopTagFragmentDoc,
    "\n  query ShopAreas($typeId: ID!) {\n    shopAreas(typeId: $typeId)\n  }\n": types.ShopAreasDocument,
    "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String, $sort: ShopSort, $filter: ShopFilter) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after, sort: $sort, filter: $filter) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n": types.ShopsDocument,
    "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.SearchShopsDocument,
    "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      viewerRating\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        maxQuantity\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n    seckillTokenRequired\n  }\n": types.ShopDocument,
    "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    quantity\n    payType\n    createTime\n    payTime\n    useTime\n    refundTime\n    payDeadline\n    cancelReason\n    payment {\n      attempt\n      status\n      amount\n      payType\n      payUrl\n      refundAmount\n    }\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n": types.OrderFieldsFragmentDoc,
    "\n  mutation SeckillToken($voucherId: ID!) {\n    seckillToken(voucherId: $voucherId) {\n      token\n    }\n  }\n": types.SeckillTokenDocument,
    "\n  mutation Seckill($voucherId: ID!, $token: String) {\n    seckillVoucher(voucherId: $voucherId, token: $token) {\n      orderId\n      status\n    }\n  }\n": types.SeckillDocument,
    "\n  query Order($id: ID!) {\n    order(id: $id) {\n      ...OrderFields\n    }\n  }\n": types.OrderDocument,
    "\n  query MyOrders($first: Int, $after: String, $shopId: ID) {\n    myOrders(first: $first, after: $after, shopId: $shopId) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.MyOrdersDocument,
    "\n  mutation PayOrder($orderId: ID!, $payType: PayType!) {\n    payOrder(orderId: $orderId, payType: $payType) {\n      ...OrderFields\n    }\n  }\n": types.PayOrderDocument,
    "\n  mutation CancelOrder($orderId: ID!) {\n    cancelOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": types.CancelOrderDocument,
    "\n  mutation RefundOrder($orderId: ID!) {\n    refundOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n": types.RefundOrderDocument,
    "\n  subscription SaleUpdates($ids: [ID!]!) {\n    saleUpdates(ids: $ids) {\n      voucherId\n      stock\n      state\n    }\n  }\n": types.SaleUpdatesDocument,
    "\n  query ShopBlogs($shopId: ID!, $orderBy: BlogOrder!, $first: Int, $after: String) {\n    blogsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ShopBlogsDocument,
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
    "\n  fragment SignInFields on SignInStatus {\n    today\n    signedToday\n    streak\n    days\n    madeUpDays\n    makeUpsLeft\n  }\n": types.SignInFieldsFragmentDoc,
    "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      ...SignInFields\n    }\n  }\n": types.SignInStatusDocument,
    "\n  mutation SignIn {\n    signIn {\n      ...SignInFields\n    }\n  }\n": types.SignInDocument,
    "\n  fragment CommentFields on Comment {\n    id\n    content\n    liked\n    likedByMe\n    parentId\n    deleted\n    createTime\n    author {\n      ...UserBrief\n    }\n    replyTo {\n      id\n      author {\n        id\n        nickName\n      }\n    }\n  }\n": types.CommentFieldsFragmentDoc,
    "\n  query Comments($blogId: ID!, $first: Int, $after: String) {\n    blog(id: $blogId) {\n      id\n      comments\n      commentList(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n            replyCount\n            replies(first: 3) {\n              edges {\n                node {\n                  ...CommentFields\n                }\n              }\n              pageInfo {\n                hasNextPage\n                endCursor\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.CommentsDocument,
    "\n  query Replies($id: ID!, $first: Int, $after: String) {\n    comment(id: $id) {\n      id\n      replyCount\n      replies(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.RepliesDocument,
    "\n  query CommentCount($blogId: ID!) {\n    blog(id: $blogId) {\n      id\n      comments\n    }\n  }\n": types.CommentCountDocument,
    "\n  mutation AddComment($blogId: ID!, $content: String!, $replyTo: ID) {\n    addComment(blogId: $blogId, content: $content, replyTo: $replyTo) {\n      ...CommentFields\n    }\n  }\n": types.AddCommentDocument,
    "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n": types.DeleteCommentDocument,
    "\n  mutation SetCommentLike($id: ID!, $liked: Boolean!) {\n    setCommentLike(id: $id, liked: $liked) {\n      id\n      liked\n      likedByMe\n    }\n  }\n": types.SetCommentLikeDocument,
    "\n  subscription BlogComments($blogId: ID!) {\n    blogComments(blogId: $blogId) {\n      ...CommentFields\n    }\n  }\n": types.BlogCommentsDocument,
    "\n  mutation MakeUpSignIn($date: String!) {\n    makeUpSignIn(date: $date) {\n      ...SignInFields\n    }\n  }\n": types.MakeUpSignInDocument,
    "\n  mutation BuyVoucher($voucherId: ID!, $quantity: Int!) {\n    buyVoucher(voucherId: $voucherId, quantity: $quantity) {\n      ...OrderFields\n    }\n  }\n": types.BuyVoucherDocument,
    "\n  query ShopReviews($shopId: ID!, $orderBy: ReviewOrder!, $first: Int, $after: String) {\n    reviewsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          stars\n          blog {\n            id\n            title\n            content\n            createTime\n            author {\n              ...UserBrief\n            }\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.ShopReviewsDocument,
    "\n  mutation RateShop($shopId: ID!, $stars: Int!) {\n    rateShop(shopId: $shopId, stars: $stars) {\n      id\n      score\n      comments\n    }\n  }\n": types.RateShopDocument,
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
export function graphql(source: "\n  query OpViewer {\n    viewerIsAdmin\n    shopTypes {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query OpViewer {\n    viewerIsAdmin\n    shopTypes {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OpShopFields on Shop {\n    id\n    name\n    type {\n      id\n    }\n    images\n    area\n    address\n    x\n    y\n    avgPrice\n    openHours\n  }\n"): (typeof documents)["\n  fragment OpShopFields on Shop {\n    id\n    name\n    type {\n      id\n    }\n    images\n    area\n    address\n    x\n    y\n    avgPrice\n    openHours\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpFindShops($name: String!) {\n    searchShops(name: $name, first: 20) {\n      edges {\n        node {\n          id\n          name\n          address\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query OpFindShops($name: String!) {\n    searchShops(name: $name, first: 20) {\n      edges {\n        node {\n          id\n          name\n          address\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpShop($id: ID!) {\n    shop(id: $id) {\n      ...OpShopFields\n    }\n    operatorVouchers(shopId: $id) {\n      ...OpVoucherFields\n    }\n  }\n"): (typeof documents)["\n  query OpShop($id: ID!) {\n    shop(id: $id) {\n      ...OpShopFields\n    }\n    operatorVouchers(shopId: $id) {\n      ...OpVoucherFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpCreateShop($input: CreateShopInput!) {\n    createShop(input: $input) {\n      ...OpShopFields\n    }\n  }\n"): (typeof documents)["\n  mutation OpCreateShop($input: CreateShopInput!) {\n    createShop(input: $input) {\n      ...OpShopFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpUpdateShop($id: ID!, $input: UpdateShopInput!) {\n    updateShop(id: $id, input: $input) {\n      ...OpShopFields\n    }\n  }\n"): (typeof documents)["\n  mutation OpUpdateShop($id: ID!, $input: UpdateShopInput!) {\n    updateShop(id: $id, input: $input) {\n      ...OpShopFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OpVoucherFields on Voucher {\n    id\n    title\n    subTitle\n    rules\n    payValue\n    actualValue\n    type\n    status\n    perUserLimit\n    seckill {\n      stock\n      beginTime\n      endTime\n    }\n  }\n"): (typeof documents)["\n  fragment OpVoucherFields on Voucher {\n    id\n    title\n    subTitle\n    rules\n    payValue\n    actualValue\n    type\n    status\n    perUserLimit\n    seckill {\n      stock\n      beginTime\n      endTime\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpCreateVoucher($input: CreateVoucherInput!) {\n    createVoucher(input: $input) {\n      ...OpVoucherFields\n    }\n  }\n"): (typeof documents)["\n  mutation OpCreateVoucher($input: CreateVoucherInput!) {\n    createVoucher(input: $input) {\n      ...OpVoucherFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpUpdateVoucher($id: ID!, $input: UpdateVoucherInput!) {\n    updateVoucher(id: $id, input: $input) {\n      ...OpVoucherFields\n    }\n  }\n"): (typeof documents)["\n  mutation OpUpdateVoucher($id: ID!, $input: UpdateVoucherInput!) {\n    updateVoucher(id: $id, input: $input) {\n      ...OpVoucherFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpSetOnSale($id: ID!, $onSale: Boolean!) {\n    setVoucherOnSale(id: $id, onSale: $onSale) {\n      ...OpVoucherFields\n    }\n  }\n"): (typeof documents)["\n  mutation OpSetOnSale($id: ID!, $onSale: Boolean!) {\n    setVoucherOnSale(id: $id, onSale: $onSale) {\n      ...OpVoucherFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpSale($id: ID!) {\n    saleNumbers(voucherId: $id) {\n      voucherId\n      redisStock\n      mysqlStock\n      admitted\n      pending\n      persisted\n      orders {\n        status\n        count\n      }\n      rejectedTotal\n      rejected {\n        reason\n        count\n      }\n      deadLetters\n      beginTime\n      endTime\n      at\n    }\n    deadLetters(sale: $id, first: 50) {\n      id\n      at\n      reason\n      orderId\n      userId\n    }\n  }\n"): (typeof documents)["\n  query OpSale($id: ID!) {\n    saleNumbers(voucherId: $id) {\n      voucherId\n      redisStock\n      mysqlStock\n      admitted\n      pending\n      persisted\n      orders {\n        status\n        count\n      }\n      rejectedTotal\n      rejected {\n        reason\n        count\n      }\n      deadLetters\n      beginTime\n      endTime\n      at\n    }\n    deadLetters(sale: $id, first: 50) {\n      id\n      at\n      reason\n      orderId\n      userId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpReplay($sale: ID!, $id: String!) {\n    replayDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n      newOrderId\n    }\n  }\n"): (typeof documents)["\n  mutation OpReplay($sale: ID!, $id: String!) {\n    replayDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n      newOrderId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpDiscard($sale: ID!, $id: String!) {\n    discardDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n    }\n  }\n"): (typeof documents)["\n  mutation OpDiscard($sale: ID!, $id: String!) {\n    discardDeadLetter(sale: $sale, id: $id) {\n      outcome\n      detail\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OpRedeem($id: ID!) {\n    redeemOrder(orderId: $id) {\n      id\n      status\n      useTime\n      voucher {\n        title\n        shop {\n          name\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation OpRedeem($id: ID!) {\n    redeemOrder(orderId: $id) {\n      id\n      status\n      useTime\n      voucher {\n        title\n        shop {\n          name\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpShopOrders($shopId: ID!, $status: OrderStatus, $first: Int, $after: String) {\n    shopOrders(shopId: $shopId, status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          status\n          createTime\n          payTime\n          useTime\n          voucher {\n            id\n            title\n          }\n          user {\n            id\n            nickName\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query OpShopOrders($shopId: ID!, $status: OrderStatus, $first: Int, $after: String) {\n    shopOrders(shopId: $shopId, status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          status\n          createTime\n          payTime\n          useTime\n          voucher {\n            id\n            title\n          }\n          user {\n            id\n            nickName\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpAudit($shopId: ID, $first: Int, $after: String) {\n    operatorAudit(shopId: $shopId, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          actor\n          action\n          at\n          shopId\n          voucherId\n          orderId\n          deadLetterId\n          outcome\n          detail\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query OpAudit($shopId: ID, $first: Int, $after: String) {\n    operatorAudit(shopId: $shopId, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          actor\n          action\n          at\n          shopId\n          voucherId\n          orderId\n          deadLetterId\n          outcome\n          detail\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  query Me {\n    viewerIsAdmin\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    viewerIsAdmin\n    me {\n      ...UserBrief\n      followerCount\n      followeeCount\n      info {\n        city\n        introduce\n        gender\n        birthday\n        credits\n        level\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  fragment ShopTag on Shop {\n    bestVoucher {\n      label\n      flashSale\n    }\n  }\n"): (typeof documents)["\n  fragment ShopTag on Shop {\n    bestVoucher {\n      label\n      flashSale\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShopAreas($typeId: ID!) {\n    shopAreas(typeId: $typeId)\n  }\n"): (typeof documents)["\n  query ShopAreas($typeId: ID!) {\n    shopAreas(typeId: $typeId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String, $sort: ShopSort, $filter: ShopFilter) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after, sort: $sort, filter: $filter) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String, $sort: ShopSort, $filter: ShopFilter) {\n    shops(typeId: $typeId, near: $near, first: $first, after: $after, sort: $sort, filter: $filter) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n    shopTypes {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchShops($name: String!, $first: Int, $after: String) {\n    searchShops(name: $name, first: $first, after: $after) {\n      edges {\n        node {\n          ...ShopCard\n          ...ShopTag\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      viewerRating\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        maxQuantity\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n    seckillTokenRequired\n  }\n"): (typeof documents)["\n  query Shop($id: ID!) {\n    shop(id: $id) {\n      ...ShopCard\n      openHours\n      uvToday\n      viewerRating\n      type {\n        id\n        name\n      }\n      vouchers {\n        id\n        title\n        subTitle\n        rules\n        payValue\n        actualValue\n        type\n        status\n        maxQuantity\n        seckill {\n          stock\n          beginTime\n          endTime\n        }\n      }\n    }\n    seckillTokenRequired\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    quantity\n    payType\n    createTime\n    payTime\n    useTime\n    refundTime\n    payDeadline\n    cancelReason\n    payment {\n      attempt\n      status\n      amount\n      payType\n      payUrl\n      refundAmount\n    }\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment OrderFields on VoucherOrder {\n    id\n    status\n    quantity\n    payType\n    createTime\n    payTime\n    useTime\n    refundTime\n    payDeadline\n    cancelReason\n    payment {\n      attempt\n      status\n      amount\n      payType\n      payUrl\n      refundAmount\n    }\n    voucher {\n      id\n      title\n      payValue\n      actualValue\n      shop {\n        id\n        name\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  query MyOrders($first: Int, $after: String, $shopId: ID) {\n    myOrders(first: $first, after: $after, shopId: $shopId) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyOrders($first: Int, $after: String, $shopId: ID) {\n    myOrders(first: $first, after: $after, shopId: $shopId) {\n      edges {\n        node {\n          ...OrderFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  mutation RefundOrder($orderId: ID!) {\n    refundOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  mutation RefundOrder($orderId: ID!) {\n    refundOrder(orderId: $orderId) {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SaleUpdates($ids: [ID!]!) {\n    saleUpdates(ids: $ids) {\n      voucherId\n      stock\n      state\n    }\n  }\n"): (typeof documents)["\n  subscription SaleUpdates($ids: [ID!]!) {\n    saleUpdates(ids: $ids) {\n      voucherId\n      stock\n      state\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShopBlogs($shopId: ID!, $orderBy: BlogOrder!, $first: Int, $after: String) {\n    blogsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShopBlogs($shopId: ID!, $orderBy: BlogOrder!, $first: Int, $after: String) {\n    blogsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          ...BlogCard\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  fragment SignInFields on SignInStatus {\n    today\n    signedToday\n    streak\n    days\n    madeUpDays\n    makeUpsLeft\n  }\n"): (typeof documents)["\n  fragment SignInFields on SignInStatus {\n    today\n    signedToday\n    streak\n    days\n    madeUpDays\n    makeUpsLeft\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      ...SignInFields\n    }\n  }\n"): (typeof documents)["\n  query SignInStatus($month: String) {\n    signInStatus(month: $month) {\n      ...SignInFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn {\n    signIn {\n      ...SignInFields\n    }\n  }\n"): (typeof documents)["\n  mutation SignIn {\n    signIn {\n      ...SignInFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CommentFields on Comment {\n    id\n    content\n    liked\n    likedByMe\n    parentId\n    deleted\n    createTime\n    author {\n      ...UserBrief\n    }\n    replyTo {\n      id\n      author {\n        id\n        nickName\n      }\n    }\n  }\n"): (typeof documents)["\n  fragment CommentFields on Comment {\n    id\n    content\n    liked\n    likedByMe\n    parentId\n    deleted\n    createTime\n    author {\n      ...UserBrief\n    }\n    replyTo {\n      id\n      author {\n        id\n        nickName\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Comments($blogId: ID!, $first: Int, $after: String) {\n    blog(id: $blogId) {\n      id\n      comments\n      commentList(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n            replyCount\n            replies(first: 3) {\n              edges {\n                node {\n                  ...CommentFields\n                }\n              }\n              pageInfo {\n                hasNextPage\n                endCursor\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Comments($blogId: ID!, $first: Int, $after: String) {\n    blog(id: $blogId) {\n      id\n      comments\n      commentList(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n            replyCount\n            replies(first: 3) {\n              edges {\n                node {\n                  ...CommentFields\n                }\n              }\n              pageInfo {\n                hasNextPage\n                endCursor\n              }\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Replies($id: ID!, $first: Int, $after: String) {\n    comment(id: $id) {\n      id\n      replyCount\n      replies(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Replies($id: ID!, $first: Int, $after: String) {\n    comment(id: $id) {\n      id\n      replyCount\n      replies(first: $first, after: $after) {\n        edges {\n          node {\n            ...CommentFields\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CommentCount($blogId: ID!) {\n    blog(id: $blogId) {\n      id\n      comments\n    }\n  }\n"): (typeof documents)["\n  query CommentCount($blogId: ID!) {\n    blog(id: $blogId) {\n      id\n      comments\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddComment($blogId: ID!, $content: String!, $replyTo: ID) {\n    addComment(blogId: $blogId, content: $content, replyTo: $replyTo) {\n      ...CommentFields\n    }\n  }\n"): (typeof documents)["\n  mutation AddComment($blogId: ID!, $content: String!, $replyTo: ID) {\n    addComment(blogId: $blogId, content: $content, replyTo: $replyTo) {\n      ...CommentFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n"): (typeof documents)["\n  mutation DeleteComment($id: ID!) {\n    deleteComment(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetCommentLike($id: ID!, $liked: Boolean!) {\n    setCommentLike(id: $id, liked: $liked) {\n      id\n      liked\n      likedByMe\n    }\n  }\n"): (typeof documents)["\n  mutation SetCommentLike($id: ID!, $liked: Boolean!) {\n    setCommentLike(id: $id, liked: $liked) {\n      id\n      liked\n      likedByMe\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription BlogComments($blogId: ID!) {\n    blogComments(blogId: $blogId) {\n      ...CommentFields\n    }\n  }\n"): (typeof documents)["\n  subscription BlogComments($blogId: ID!) {\n    blogComments(blogId: $blogId) {\n      ...CommentFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation MakeUpSignIn($date: String!) {\n    makeUpSignIn(date: $date) {\n      ...SignInFields\n    }\n  }\n"): (typeof documents)["\n  mutation MakeUpSignIn($date: String!) {\n    makeUpSignIn(date: $date) {\n      ...SignInFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BuyVoucher($voucherId: ID!, $quantity: Int!) {\n    buyVoucher(voucherId: $voucherId, quantity: $quantity) {\n      ...OrderFields\n    }\n  }\n"): (typeof documents)["\n  mutation BuyVoucher($voucherId: ID!, $quantity: Int!) {\n    buyVoucher(voucherId: $voucherId, quantity: $quantity) {\n      ...OrderFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShopReviews($shopId: ID!, $orderBy: ReviewOrder!, $first: Int, $after: String) {\n    reviewsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          stars\n          blog {\n            id\n            title\n            content\n            createTime\n            author {\n              ...UserBrief\n            }\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShopReviews($shopId: ID!, $orderBy: ReviewOrder!, $first: Int, $after: String) {\n    reviewsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {\n      edges {\n        node {\n          id\n          stars\n          blog {\n            id\n            title\n            content\n            createTime\n            author {\n              ...UserBrief\n            }\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RateShop($shopId: ID!, $stars: Int!) {\n    rateShop(shopId: $shopId, stars: $stars) {\n      id\n      score\n      comments\n    }\n  }\n"): (typeof documents)["\n  mutation RateShop($shopId: ID!, $stars: Int!) {\n    rateShop(shopId: $shopId, stars: $stars) {\n      id\n      score\n      comments\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;