#include <cooperative_groups.h>
#include <cstdio>
namespace cg=cooperative_groups;
__device__ unsigned rk(){unsigned v;asm volatile("mov.u32 %0,%%cluster_ctarank;":"=r"(v));return v;}
__device__ unsigned rm(const void*p,unsigned r){unsigned c=(unsigned)__cvta_generic_to_shared(p),d;asm volatile("mapa.shared::cluster.u32 %0,%1,%2;":"=r"(d):"r"(c),"r"(r));return d;}
__global__ void addr(unsigned long long*o){__shared__ unsigned pad[40],s[8];pad[threadIdx.x%40]=1;s[threadIdx.x%8]=1000*rk()+threadIdx.x%8;cg::this_cluster().sync();
if(!threadIdx.x){o+=16*rk();unsigned long long g=(unsigned long long)&s[3];o[0]=g;o[1]=(unsigned)__cvta_generic_to_shared(&s[3]);o[2]=(unsigned long long)&pad[pad[0]];
for(unsigned r=0;r<4;r++){unsigned long long m,b;unsigned c=rm(&s[3],r);asm volatile("mapa.u64 %0,%1,%2;":"=l"(m):"l"(g),"r"(r));asm volatile("cvta.shared::cluster.u64 %0,%1;":"=l"(b):"l"((unsigned long long)c));o[3+r]=m;o[7+r]=c;o[11+r]=b;}
unsigned v;asm volatile("ld.shared::cluster.u32 %0,[%1];":"=r"(v):"r"(rm(&s[3],(rk()+1)%4)));o[15]=v;}cg::this_cluster().sync();}
#define K(n,...) __global__ void n(unsigned*out){__shared__ __align__(128) unsigned sh[2048];for(int i=threadIdx.x;i<2048;i+=32)sh[i]=i*3+1;cg::this_cluster().sync();unsigned l=threadIdx.x,v=0;if(!rk()){__VA_ARGS__;}cg::this_cluster().sync();out[blockIdx.x*64+l]=v;out[blockIdx.x*64+32+l]=sh[l];}
K(ld,asm volatile("ld.shared::cluster.u32 %0,[%1];":"=r"(v):"r"(rm(&sh[l],1))))
K(ld32,asm volatile("ld.shared::cluster.u32 %0,[%1];":"=r"(v):"r"(rm(&sh[32*l],1))))
K(ldv4,asm volatile("ld.shared::cluster.v4.u32 {%0,%0,%0,%0},[%1];":"=r"(v):"r"(rm(&sh[4*l],1))))
K(ldself,asm volatile("ld.shared::cluster.u32 %0,[%1];":"=r"(v):"r"(rm(&sh[l],0))))
K(ldgen,v=*cg::this_cluster().map_shared_rank(&sh[l],1))
K(st,asm volatile("st.shared::cluster.u32 [%0],%1;"::"r"(rm(&sh[l],1)),"r"(l+7)))
K(st32,asm volatile("st.shared::cluster.u32 [%0],%1;"::"r"(rm(&sh[32*l],1)),"r"(l+7)))
K(atom,asm volatile("atom.shared::cluster.add.u32 %0,[%1],%2;":"=r"(v):"r"(rm(&sh[l],1)),"r"(l)))
K(atom1,asm volatile("atom.shared::cluster.add.u32 %0,[%1],1;":"=r"(v):"r"(rm(&sh[0],1))))
K(red,asm volatile("red.shared::cluster.add.u32 [%0],%1;"::"r"(rm(&sh[l],1)),"r"(l)))
K(red1,asm volatile("red.shared::cluster.add.u32 [%0],1;"::"r"(rm(&sh[0],1))))
typedef void(*F)(unsigned*);
int main(){unsigned long long*a;cudaMalloc(&a,512);cudaLaunchConfig_t c{};c.gridDim=4;c.blockDim=64;cudaLaunchAttribute t;t.id=cudaLaunchAttributeClusterDimension;t.val.clusterDim.x=4;t.val.clusterDim.y=1;t.val.clusterDim.z=1;c.attrs=&t;c.numAttrs=1;
printf("%s\n",cudaGetErrorName(cudaLaunchKernelEx(&c,addr,a)));unsigned long long h[64];cudaMemcpy(h,a,512,cudaMemcpyDeviceToHost);for(int i=0;i<64;i++)printf("a,%d,%d,%llx\n",i/16,i%16,h[i]);
unsigned*o,u[128];cudaMalloc(&o,512);F f[]={ld,ld32,ldv4,ldself,ldgen,st,st32,atom,atom1,red,red1};c.gridDim=2;c.blockDim=32;t.val.clusterDim.x=2;
for(int k=0;k<11;k++){cudaLaunchKernelEx(&c,f[k],o);cudaMemcpy(u,o,512,cudaMemcpyDeviceToHost);printf("k%d,%s,%u,%u,%u,%u\n",k,cudaGetErrorName(cudaGetLastError()),u[0],u[31],u[96],u[127]);}}
