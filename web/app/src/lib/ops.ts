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

export const ShopsQuery = graphql(`
  query Shops($typeId: ID!, $near: GeoInput, $first: Int, $after: String) {
    shops(typeId: $typeId, near: $near, first: $first, after: $after) {
      edges {
        node {
          ...ShopCard
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
        seckill {
          stock
          beginTime
          endTime
        }
      }
    }
  }
`)

export const OrderFields = graphql(`
  fragment OrderFields on VoucherOrder {
    id
    status
    payType
    createTime
    payTime
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
  query MyOrders($first: Int, $after: String) {
    myOrders(first: $first, after: $after) {
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

export const SignInStatusQuery = graphql(`
  query SignInStatus($month: String) {
    signInStatus(month: $month) {
      signedToday
      streak
      days
    }
  }
`)

export const SignInMutation = graphql(`
  mutation SignIn {
    signIn {
      signedToday
      streak
      days
    }
  }
`)
