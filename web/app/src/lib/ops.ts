import { graphql } from '../gql'

// Every operation the app sends. `npm run codegen` types them from the
// server's schema (graph/*.graphqls); `npm run check` fails when one stops matching.

export const UserBrief = graphql(`
  fragment UserBrief on User {
    id
    nickName
    icon
  }
`)

export const BlogCard = graphql(`
  fragment BlogCard on Blog {
    id
    title
    images
    liked
    likedByMe
    createTime
    author {
      ...UserBrief
    }
  }
`)

export const ShopCard = graphql(`
  fragment ShopCard on Shop {
    id
    name
    images
    area
    address
    avgPrice
    score
    sold
    comments
    distance
    x
    y
  }
`)

export const MeQuery = graphql(`
  query Me {
    viewerIsAdmin
    me {
      ...UserBrief
      followerCount
      followeeCount
      info {
        city
        introduce
        gender
        birthday
        credits
        level
      }
    }
  }
`)

export const SendCodeMutation = graphql(`
  mutation SendCode($phone: String!) {
    sendCode(phone: $phone)
  }
`)

export const LoginMutation = graphql(`
  mutation Login($phone: String!, $code: String, $password: String) {
    login(phone: $phone, code: $code, password: $password) {
      token
      user {
        ...UserBrief
      }
    }
  }
`)

export const LogoutMutation = graphql(`
  mutation Logout {
    logout
  }
`)

export const UpdateProfileMutation = graphql(`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      ...UserBrief
      info {
        city
        introduce
        gender
        birthday
        credits
        level
      }
    }
  }
`)

export const HomeQuery = graphql(`
  query Home {
    shopTypes {
      id
      name
      icon
    }
  }
`)

export const HotBlogsQuery = graphql(`
  query HotBlogs($first: Int, $after: String) {
    hotBlogs(first: $first, after: $after) {
      edges {
        node {
          ...BlogCard
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

/** A shop card's 券 tag: only the list pages ask for it (the shop page lists the vouchers). */
export const ShopTag = graphql(`
  fragment ShopTag on Shop {
    bestVoucher {
      label
      flashSale
    }
  }
`)

export const ShopAreasQuery = graphql(`
  query ShopAreas($typeId: ID!) {
    shopAreas(typeId: $typeId)
  }
`)

export const ShopsQuery = graphql(`
  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String, $sort: ShopSort, $filter: ShopFilter) {
    shops(typeId: $typeId, near: $near, first: $first, after: $after, sort: $sort, filter: $filter) {
      edges {
        node {
          ...ShopCard
          ...ShopTag
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    shopTypes {
      id
      name
    }
  }
`)

export const SearchShopsQuery = graphql(`
  query SearchShops($name: String!, $first: Int, $after: String) {
    searchShops(name: $name, first: $first, after: $after) {
      edges {
        node {
          ...ShopCard
          ...ShopTag
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const ShopQuery = graphql(`
  query Shop($id: ID!) {
    shop(id: $id) {
      ...ShopCard
      openHours
      uvToday
      viewerRating
      type {
        id
        name
      }
      vouchers {
        id
        title
        subTitle
        rules
        payValue
        actualValue
        type
        status
        maxQuantity
        seckill {
          stock
          beginTime
          endTime
        }
      }
    }
    seckillTokenRequired
  }
`)

export const OrderFields = graphql(`
  fragment OrderFields on VoucherOrder {
    id
    status
    quantity
    payType
    createTime
    payTime
    useTime
    refundTime
    payDeadline
    cancelReason
    payment {
      attempt
      status
      amount
      payType
      payUrl
      refundAmount
    }
    voucher {
      id
      title
      payValue
      actualValue
      shop {
        id
        name
      }
    }
  }
`)

export const SeckillTokenMutation = graphql(`
  mutation SeckillToken($voucherId: ID!) {
    seckillToken(voucherId: $voucherId) {
      token
    }
  }
`)

export const SeckillMutation = graphql(`
  mutation Seckill($voucherId: ID!, $token: String) {
    seckillVoucher(voucherId: $voucherId, token: $token) {
      orderId
      status
    }
  }
`)

export const OrderQuery = graphql(`
  query Order($id: ID!) {
    order(id: $id) {
      ...OrderFields
    }
  }
`)

export const MyOrdersQuery = graphql(`
  query MyOrders($first: Int, $after: String, $shopId: ID) {
    myOrders(first: $first, after: $after, shopId: $shopId) {
      edges {
        node {
          ...OrderFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const PayOrderMutation = graphql(`
  mutation PayOrder($orderId: ID!, $payType: PayType!) {
    payOrder(orderId: $orderId, payType: $payType) {
      ...OrderFields
    }
  }
`)

export const CancelOrderMutation = graphql(`
  mutation CancelOrder($orderId: ID!) {
    cancelOrder(orderId: $orderId) {
      ...OrderFields
    }
  }
`)

export const RefundOrderMutation = graphql(`
  mutation RefundOrder($orderId: ID!) {
    refundOrder(orderId: $orderId) {
      ...OrderFields
    }
  }
`)

export const SaleUpdatesSubscription = graphql(`
  subscription SaleUpdates($ids: [ID!]!) {
    saleUpdates(ids: $ids) {
      voucherId
      stock
      state
    }
  }
`)

export const ShopBlogsQuery = graphql(`
  query ShopBlogs($shopId: ID!, $orderBy: BlogOrder!, $first: Int, $after: String) {
    blogsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {
      edges {
        node {
          ...BlogCard
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const OrderUpdatesSubscription = graphql(`
  subscription OrderUpdates {
    orderUpdates {
      ...OrderFields
    }
  }
`)

export const BlogQuery = graphql(`
  query Blog($id: ID!) {
    blog(id: $id) {
      id
      title
      content
      images
      liked
      likedByMe
      comments
      createTime
      shop {
        id
        name
        area
      }
      author {
        ...UserBrief
        followedByMe
      }
      topLikers {
        ...UserBrief
      }
    }
    me {
      id
    }
  }
`)

export const SetBlogLikeMutation = graphql(`
  mutation SetBlogLike($blogId: ID!, $liked: Boolean!) {
    setBlogLike(blogId: $blogId, liked: $liked) {
      id
      liked
      likedByMe
      topLikers {
        ...UserBrief
      }
    }
  }
`)

export const SetFollowMutation = graphql(`
  mutation SetFollow($userId: ID!, $follow: Boolean!) {
    setFollow(userId: $userId, follow: $follow) {
      id
      followedByMe
      followerCount
      followeeCount
    }
  }
`)

export const DeleteBlogMutation = graphql(`
  mutation DeleteBlog($id: ID!) {
    deleteBlog(id: $id)
  }
`)

export const CreateBlogMutation = graphql(`
  mutation CreateBlog($input: CreateBlogInput!) {
    createBlog(input: $input) {
      id
    }
  }
`)

export const FeedQuery = graphql(`
  query Feed($first: Int, $after: String) {
    feed(first: $first, after: $after) {
      edges {
        node {
          ...BlogCard
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const FeedItemsSubscription = graphql(`
  subscription FeedItems {
    feedItems {
      ...BlogCard
    }
  }
`)

export const UserQuery = graphql(`
  query User($id: ID!) {
    user(id: $id) {
      ...UserBrief
      followerCount
      followeeCount
      followedByMe
      info {
        city
        introduce
        level
      }
    }
    me {
      id
    }
  }
`)

export const CommonFollowsQuery = graphql(`
  query CommonFollows($id: ID!) {
    commonFollows(userId: $id) {
      ...UserBrief
    }
  }
`)

export const UserBlogsQuery = graphql(`
  query UserBlogs($userId: ID!, $first: Int, $after: String) {
    blogsByUser(userId: $userId, first: $first, after: $after) {
      edges {
        node {
          ...BlogCard
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const SignInFields = graphql(`
  fragment SignInFields on SignInStatus {
    today
    signedToday
    streak
    days
    madeUpDays
    makeUpsLeft
  }
`)

export const SignInStatusQuery = graphql(`
  query SignInStatus($month: String) {
    signInStatus(month: $month) {
      ...SignInFields
    }
  }
`)

export const SignInMutation = graphql(`
  mutation SignIn {
    signIn {
      ...SignInFields
    }
  }
`)

export const CommentFields = graphql(`
  fragment CommentFields on Comment {
    id
    content
    liked
    likedByMe
    parentId
    deleted
    createTime
    author {
      ...UserBrief
    }
    replyTo {
      id
      author {
        id
        nickName
      }
    }
  }
`)

export const CommentsQuery = graphql(`
  query Comments($blogId: ID!, $first: Int, $after: String) {
    blog(id: $blogId) {
      id
      comments
      commentList(first: $first, after: $after) {
        edges {
          node {
            ...CommentFields
            replyCount
            replies(first: 3) {
              edges {
                node {
                  ...CommentFields
                }
              }
              pageInfo {
                hasNextPage
                endCursor
              }
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`)

export const RepliesQuery = graphql(`
  query Replies($id: ID!, $first: Int, $after: String) {
    comment(id: $id) {
      id
      replyCount
      replies(first: $first, after: $after) {
        edges {
          node {
            ...CommentFields
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`)

export const CommentCountQuery = graphql(`
  query CommentCount($blogId: ID!) {
    blog(id: $blogId) {
      id
      comments
    }
  }
`)

export const AddCommentMutation = graphql(`
  mutation AddComment($blogId: ID!, $content: String!, $replyTo: ID) {
    addComment(blogId: $blogId, content: $content, replyTo: $replyTo) {
      ...CommentFields
    }
  }
`)

export const DeleteCommentMutation = graphql(`
  mutation DeleteComment($id: ID!) {
    deleteComment(id: $id)
  }
`)

export const SetCommentLikeMutation = graphql(`
  mutation SetCommentLike($id: ID!, $liked: Boolean!) {
    setCommentLike(id: $id, liked: $liked) {
      id
      liked
      likedByMe
    }
  }
`)

export const BlogCommentsSubscription = graphql(`
  subscription BlogComments($blogId: ID!) {
    blogComments(blogId: $blogId) {
      ...CommentFields
    }
  }
`)

export const MakeUpSignInMutation = graphql(`
  mutation MakeUpSignIn($date: String!) {
    makeUpSignIn(date: $date) {
      ...SignInFields
    }
  }
`)

// buyVoucher: a normal voucher's order, UNPAID at once (VoucherBuy).
export const BuyVoucherMutation = graphql(`
  mutation BuyVoucher($voucherId: ID!, $quantity: Int!) {
    buyVoucher(voucherId: $voucherId, quantity: $quantity) {
      ...OrderFields
    }
  }
`)

export const ShopReviewsQuery = graphql(`
  query ShopReviews($shopId: ID!, $orderBy: ReviewOrder!, $first: Int, $after: String) {
    reviewsByShop(shopId: $shopId, orderBy: $orderBy, first: $first, after: $after) {
      edges {
        node {
          id
          stars
          blog {
            id
            title
            content
            createTime
            author {
              ...UserBrief
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const RateShopMutation = graphql(`
  mutation RateShop($shopId: ID!, $stars: Int!) {
    rateShop(shopId: $shopId, stars: $stars) {
      id
      score
      comments
    }
  }
`)
