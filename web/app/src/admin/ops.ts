import { graphql } from '../gql'

// The operator console's operations (admins only: the server refuses anyone
// else with FORBIDDEN, whatever the page shows). Named Op* so they stay apart
// from the app's own in src/lib/ops.ts.

export const OpViewerQuery = graphql(`
  query OpViewer {
    viewerIsAdmin
    shopTypes {
      id
      name
    }
  }
`)

export const OpShopFields = graphql(`
  fragment OpShopFields on Shop {
    id
    name
    type {
      id
    }
    images
    area
    address
    x
    y
    avgPrice
    openHours
  }
`)

export const OpFindShopsQuery = graphql(`
  query OpFindShops($name: String!) {
    searchShops(name: $name, first: 20) {
      edges {
        node {
          id
          name
          address
        }
      }
    }
  }
`)

export const OpShopQuery = graphql(`
  query OpShop($id: ID!) {
    shop(id: $id) {
      ...OpShopFields
    }
    operatorVouchers(shopId: $id) {
      ...OpVoucherFields
    }
  }
`)

export const OpCreateShopMutation = graphql(`
  mutation OpCreateShop($input: CreateShopInput!) {
    createShop(input: $input) {
      ...OpShopFields
    }
  }
`)

export const OpUpdateShopMutation = graphql(`
  mutation OpUpdateShop($id: ID!, $input: UpdateShopInput!) {
    updateShop(id: $id, input: $input) {
      ...OpShopFields
    }
  }
`)

export const OpVoucherFields = graphql(`
  fragment OpVoucherFields on Voucher {
    id
    title
    subTitle
    rules
    payValue
    actualValue
    type
    status
    perUserLimit
    seckill {
      stock
      beginTime
      endTime
    }
  }
`)

export const OpCreateVoucherMutation = graphql(`
  mutation OpCreateVoucher($input: CreateVoucherInput!) {
    createVoucher(input: $input) {
      ...OpVoucherFields
    }
  }
`)

export const OpUpdateVoucherMutation = graphql(`
  mutation OpUpdateVoucher($id: ID!, $input: UpdateVoucherInput!) {
    updateVoucher(id: $id, input: $input) {
      ...OpVoucherFields
    }
  }
`)

export const OpSetOnSaleMutation = graphql(`
  mutation OpSetOnSale($id: ID!, $onSale: Boolean!) {
    setVoucherOnSale(id: $id, onSale: $onSale) {
      ...OpVoucherFields
    }
  }
`)

export const OpSaleQuery = graphql(`
  query OpSale($id: ID!) {
    saleNumbers(voucherId: $id) {
      voucherId
      redisStock
      mysqlStock
      admitted
      pending
      persisted
      orders {
        status
        count
      }
      rejectedTotal
      rejected {
        reason
        count
      }
      deadLetters
      beginTime
      endTime
      at
    }
    deadLetters(sale: $id, first: 50) {
      id
      at
      reason
      orderId
      userId
    }
  }
`)

export const OpReplayMutation = graphql(`
  mutation OpReplay($sale: ID!, $id: String!) {
    replayDeadLetter(sale: $sale, id: $id) {
      outcome
      detail
      newOrderId
    }
  }
`)

export const OpDiscardMutation = graphql(`
  mutation OpDiscard($sale: ID!, $id: String!) {
    discardDeadLetter(sale: $sale, id: $id) {
      outcome
      detail
    }
  }
`)

export const OpRedeemMutation = graphql(`
  mutation OpRedeem($id: ID!) {
    redeemOrder(orderId: $id) {
      id
      status
      useTime
      voucher {
        title
        shop {
          name
        }
      }
    }
  }
`)

export const OpShopOrdersQuery = graphql(`
  query OpShopOrders($shopId: ID!, $status: OrderStatus, $first: Int, $after: String) {
    shopOrders(shopId: $shopId, status: $status, first: $first, after: $after) {
      edges {
        node {
          id
          status
          createTime
          payTime
          useTime
          voucher {
            id
            title
          }
          user {
            id
            nickName
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

export const OpAuditQuery = graphql(`
  query OpAudit($shopId: ID, $first: Int, $after: String) {
    operatorAudit(shopId: $shopId, first: $first, after: $after) {
      edges {
        node {
          id
          actor
          action
          at
          shopId
          voucherId
          orderId
          deadLetterId
          outcome
          detail
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)
